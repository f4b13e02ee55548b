// @ts-check
// Timeline: the account's clock as an axis; each record's lifecycle steps (run, and waiting) and each
// delivery's attempts (and its next retry) placed on it, a row per record or delivery.
import { acting, paint, server, sim } from './api.js';
import { clockTime, h } from './dom.js';

/**
 * @typedef {{ at: string, done: boolean, ok: boolean, label: string }} Mark
 * @typedef {{ key: string, title: string, marks: Mark[] }} Row
 */

/** The rows: one per record whose steps ran or wait, then one per delivery. */
async function rowsOf() {
  const clock = await sim('GET', '/__sim/clock');
  const id = encodeURIComponent(acting()?.id ?? '');
  const ran = await server('GET', `/__sim/requests?api=step&account_id=${id}&limit=500`);
  const { deliveries } = await sim('GET', '/__sim/deliveries');
  /** @type {Map<string, Row>} */
  const records = new Map();
  /** @param {string} kind @param {string} ref */
  const row = (kind, ref) => {
    const key = `${kind}:${ref}`;
    if (!records.has(key)) records.set(key, { key, title: `${kind} ${ref}`, marks: [] });
    return /** @type {Row} */ (records.get(key));
  };
  for (const e of ran.requests ?? [])
    if (e.method !== 'delivery')
      row(e.method, e.path).marks.push({ at: e.at, done: true, ok: true, label: String(e.response.body ?? '') });
  for (const s of clock.pending)
    if (s.kind !== 'delivery') row(s.kind, s.ref).marks.push({ at: s.at, done: false, ok: true, label: 'waiting' });
  /** @type {Row[]} */
  const sent = deliveries.map((/** @type {any} */ d) => ({
    key: `delivery:${d.id}`,
    title: `${d.kind} → ${d.target}`,
    marks: [
      ...d.attempts.map((/** @type {any} */ a, /** @type {number} */ i) => ({
        at: a.at,
        done: true,
        ok: a.status !== null && a.status < 300 && !a.error,
        label: `attempt ${i + 1}: ${a.status ?? a.error ?? ''}`,
      })),
      ...(d.next_attempt_at ? [{ at: d.next_attempt_at, done: false, ok: true, label: 'next retry' }] : []),
    ],
  }));
  return { now: clock.now, rows: [...records.values(), ...sent] };
}

/** How far past now the axis reaches. */
const DAY_MS = 86_400_000;

export async function timelineView() {
  const { now, rows } = await rowsOf();
  // the axis runs from the first mark to a day past now at most: what waits further off (an OSR's expiry
  // months away) sits at the right edge, marked as beyond, rather than squeezing the rest into a dot
  const nowMs = Date.parse(now);
  const times = [nowMs, ...rows.flatMap((r) => r.marks.map((m) => Date.parse(m.at)))];
  const from = Math.min(...times);
  const to = Math.max(nowMs + 1, ...times.filter((t) => t <= nowMs + DAY_MS));
  /** @param {string} t */
  const left = (t) => `${Math.min(100, ((Date.parse(t) - from) / (to - from)) * 100)}%`;
  /** @param {string} t */
  const beyond = (t) => (Date.parse(t) > to ? ' beyond' : '');
  paint(
    'timeline',
    h(
      'section',
      {},
      h('h2', {}, `Timeline of ${acting()?.name ?? ''} `, h('span', { class: 'muted' }, `${rows.length} rows`)),
      h(
        'p',
        { class: 'muted' },
        `account clock from ${clockTime(new Date(from).toISOString())} to ${clockTime(new Date(to).toISOString())}; the line is now, a dashed mark is further off`,
      ),
      rows.length === 0
        ? h('p', { class: 'muted' }, 'Nothing has happened on the clock yet, and nothing waits on it.')
        : h(
            'div',
            { id: 'timeline-rows' },
            rows.map((r) =>
              h(
                'div',
                { class: 'timeline-row', 'data-key': r.key },
                h('span', { class: 'timeline-title wrap' }, r.title),
                h(
                  'span',
                  { class: 'timeline-lane' },
                  h('span', { class: 'timeline-now', style: `left: ${left(now)}` }),
                  r.marks.map((m) =>
                    h('span', {
                      class: `mark ${m.done ? 'done' : 'pending'} ${m.ok ? 'ok' : 'failed'}${beyond(m.at)}`,
                      style: `left: ${left(m.at)}`,
                      title: `${clockTime(m.at)}: ${m.label}`,
                    }),
                  ),
                ),
              ),
            ),
          ),
    ),
  );
}
