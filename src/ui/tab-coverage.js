// @ts-check
// Coverage: what the account's client met of the contract: the operations it called and the answers
// it saw, what its receivers were sent and how they answered, the faults that fired.
import { account, accountQuery, paint, server } from './api.js';
import { h } from './dom.js';

/** @param {{ status: number, documented: boolean, seen: number }} a */
const answer = (a) =>
  h(
    'span',
    { class: a.seen ? 'ok' : 'muted', title: a.documented ? 'documented' : 'not documented' },
    `${a.status} ${a.seen ? '✔' : '✘'} `,
  );

/** @param {{ kind: string, delivered: number, answers: Record<string, number> }[]} list */
const sent = (list) =>
  list
    .filter((d) => d.delivered)
    .map((d) =>
      h(
        'tr',
        {},
        h('td', {}, d.kind),
        h('td', {}, String(d.delivered)),
        h(
          'td',
          { class: 'muted' },
          Object.entries(d.answers)
            .map(([status, n]) => `${status} ×${n}`)
            .join(', '),
        ),
      ),
    );

export async function coverageView() {
  // the server's view (removed sandboxes included), or the account picked
  const query = accountQuery();
  const c = await server('GET', `/__sim/coverage${query ? `?${query}` : ''}`);
  const s = c.summary;
  paint(
    'coverage',
    h(
      'section',
      { id: 'coverage' },
      h('h2', {}, `Coverage of ${account()?.name ?? 'every account'}`),
      h(
        'p',
        { class: 'summary' },
        `${s.answers_seen} of ${s.answers} documented answers of the ${s.operations_called} operations called seen (${s.percent}%); ${s.operations - s.operations_called} of ${s.operations} operations never called`,
      ),
      h(
        'table',
        {},
        c.operations
          .filter((/** @type {{ calls: number }} */ o) => o.calls)
          .map((/** @type {any} */ o) =>
            h('tr', {}, h('td', {}, o.operation_id), h('td', {}, String(o.calls)), h('td', {}, o.answers.map(answer))),
          ),
      ),
      h('h3', {}, 'Sent to the client'),
      h('table', {}, [...sent(c.deliveries.events), ...sent(c.deliveries.cdrs), ...sent(c.deliveries.formats)]),
      h('h3', {}, 'Faults fired'),
      h(
        'table',
        {},
        c.faults.map((/** @type {{ effect: string, fired: number }} */ f) =>
          h('tr', {}, h('td', {}, f.effect), h('td', {}, String(f.fired))),
        ),
      ),
    ),
  );
}
