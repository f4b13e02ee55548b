// @ts-check
// Clock: the account clock, its pending steps, and the buttons that move it.
import { acting, paint, sim } from './api.js';
import { $, clockTime, h, inTime, say } from './dom.js';
import { refreshClock } from './shell.js';

export async function clockView() {
  const render = async () => {
    const clock = await refreshClock();
    const advance = async (body) => {
      const result = await sim('POST', '/__sim/clock/advance', body);
      const ran = `${result.fired.length} step${result.fired.length === 1 ? '' : 's'} ran`;
      say(`now ${clockTime(result.now)} (moved ${result.moved}); ${ran}`);
      await render();
    };
    paint(
      'clock',
      h(
        'section',
        {},
        h(
          'h2',
          {},
          `Clock of ${acting()?.name ?? ''}: `,
          h('span', { id: 'clock-now' }, clockTime(clock.now)),
          h('span', { class: 'muted' }, ` (${clock.mode})`),
        ),
        h(
          'div',
          { class: 'toolbar' },
          h('button', { class: 'primary', onclick: () => advance({ by: 'PT10M' }) }, 'Advance 10 minutes'),
          h('button', { onclick: () => advance({ by: 'PT1H' }) }, 'Advance 1 hour'),
          h('button', { onclick: () => advance({ next: true }) }, 'To the next step'),
          h('input', { id: 'by', placeholder: 'P1DT2H', size: 10, 'aria-label': 'duration' }),
          h('button', { onclick: () => advance({ by: $('by').value }) }, 'Advance by'),
          h('input', { id: 'to', placeholder: '2026-03-02T09:00:00Z', size: 22, 'aria-label': 'time' }),
          h('button', { onclick: () => advance({ to: $('to').value }) }, 'Advance to'),
          clock.mode === 'frozen'
            ? h('button', { onclick: async () => (await sim('POST', '/__sim/clock/resume'), render()) }, 'Resume')
            : h('button', { onclick: async () => (await sim('POST', '/__sim/clock/freeze'), render()) }, 'Freeze'),
        ),
        h('h3', {}, `Pending steps (${clock.pending.length})`),
        clock.pending.length === 0
          ? h('p', { class: 'muted' }, 'Nothing is waiting on the clock.')
          : h(
              'table',
              { id: 'steps' },
              h(
                'tr',
                {},
                ['due (account clock)', 'in', 'what', 'record'].map((t) => h('th', {}, t)),
              ),
              clock.pending.map((s) =>
                h(
                  'tr',
                  {},
                  h('td', {}, clockTime(s.at)),
                  h('td', { class: 'muted' }, inTime(Date.parse(s.at) - Date.parse(clock.now))),
                  h('td', {}, s.kind),
                  h('td', { class: 'wrap' }, s.ref),
                ),
              ),
            ),
      ),
    );
  };
  await render();
}
