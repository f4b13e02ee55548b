// @ts-check
// Deliveries: every delivery with its attempts, and "Redeliver now".
import { account, accountQuery, paint, server } from './api.js';
import { all, clockTime, h, pretty, say, statusClass, traceLink } from './dom.js';
import { every } from './shell.js';

/** A delivery's kind, and for an event its event's kind (`event order.completed`), read from the body it sent. */
function kindOf(d) {
  if (d.kind !== 'event') return d.kind;
  try {
    return `event ${JSON.parse(d.body).data.kind}`;
  } catch {
    return d.kind;
  }
}

/** What a delivery put on the wire: its headers (for MM4 the envelope, for SFTP the file) and its body. */
function sentView(d) {
  const headers = Object.entries(d.headers);
  return [
    headers.length ? h('h3', {}, 'Headers') : null,
    headers.length ? h('pre', { class: 'sent-headers' }, headers.map(([k, v]) => `${k}: ${v}`).join('\n')) : null,
    h('h3', {}, 'Body'),
    h('pre', { class: 'sent-body' }, pretty(d.body)),
  ];
}

/** The deliveries of the account picked (its whole log), or the first page of every account's. */
const shownDeliveries = async () => (await server('GET', `/__sim/deliveries?${accountQuery()}`)).deliveries;

const heading = (n) =>
  h('h2', {}, `Deliveries of ${account()?.name ?? 'every account'} `, h('span', { class: 'muted' }, `${n}`));

export async function deliveriesView() {
  const render = async () => {
    const deliveries = await shownDeliveries();
    const open = new Set(all('details[open]').map((d) => d.dataset.id));
    paint(
      'deliveries',
      h(
        'section',
        {},
        heading(deliveries.length),
        deliveries.length === 0 ? h('p', { class: 'muted' }, 'Nothing has been sent yet.') : null,
        ...deliveries
          .slice()
          .reverse()
          .map((d) =>
            h(
              'details',
              { class: 'delivery', 'data-id': d.id, open: open.has(d.id) },
              h(
                'summary',
                {},
                h('span', { class: `outcome o-${d.outcome}` }, d.outcome),
                ` ${kindOf(d)} · ${d.method} ${d.target} · ${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}`,
                d.next_attempt_at
                  ? h(
                      'span',
                      { class: 'muted next-retry' },
                      ` · next retry ${clockTime(d.next_attempt_at)} (account clock)`,
                    )
                  : null,
              ),
              h(
                'div',
                { class: 'toolbar' },
                h(
                  'button',
                  {
                    class: 'redeliver',
                    onclick: async () => {
                      await server('POST', `/__sim/deliveries/${encodeURIComponent(d.id)}/redeliver`);
                      say(`redelivered ${d.id}`);
                      await render();
                    },
                  },
                  'Redeliver now',
                ),
                h('span', { class: 'muted' }, `queued ${clockTime(d.inserted_at)}`),
                d.trace_id ? h('span', { class: 'muted' }, 'caused by trace ', traceLink(d.trace_id)) : null,
                d.note ? h('span', { class: 'muted' }, d.note) : null,
              ),
              h(
                'table',
                { class: 'attempts' },
                h(
                  'tr',
                  {},
                  ['account clock', 'status', 'error', 'ms', 'trace'].map((t) => h('th', {}, t)),
                ),
                d.attempts.map((a) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, clockTime(a.at)),
                    h('td', { class: a.status ? statusClass(a.status) : 'muted' }, a.status ?? '—'),
                    h('td', { class: 'wrap' }, a.error ?? ''),
                    h('td', {}, a.duration_ms.toFixed(1)),
                    h('td', {}, traceLink(a.trace_id)),
                  ),
                ),
              ),
              ...sentView(d),
            ),
          ),
      ),
    );
  };
  await render();
  every(2000, render);
}
