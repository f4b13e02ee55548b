// @ts-check
// Scenarios: the list, a run, and its timeline.
import { paint, sim } from './api.js';
import { $, clockTime, h } from './dom.js';

export async function scenariosView() {
  const { scenarios, titles, problems } = await sim('GET', '/__sim/scenarios');
  paint(
    'scenarios',
    h(
      'section',
      {},
      h('h2', {}, 'Scenarios'),
      h(
        'table',
        {},
        scenarios.map((name) =>
          h(
            'tr',
            {},
            h('td', {}, name),
            h('td', { class: 'muted' }, titles[name] ?? ''),
            h(
              'td',
              {},
              h(
                'button',
                {
                  'data-scenario': name,
                  onclick: async (e) => {
                    e.target.disabled = true;
                    $('timeline').replaceChildren(
                      h('p', { class: 'muted' }, `${name} is running… (its calls appear live under Requests)`),
                    );
                    const result = await sim('POST', `/__sim/scenarios/${encodeURIComponent(name)}`);
                    e.target.disabled = false;
                    $('timeline').replaceChildren(
                      h(
                        'h3',
                        {},
                        `${result.title}: `,
                        h('span', { class: result.passed ? 's2xx' : 's5xx' }, result.passed ? 'passed' : 'failed'),
                      ),
                      result.error ? h('p', { class: 'error' }, result.error) : '',
                      h(
                        'table',
                        {},
                        h(
                          'tr',
                          {},
                          ['account clock', 'step', 'detail'].map((t) => h('th', {}, t)),
                        ),
                        result.timeline.map((t) =>
                          h(
                            'tr',
                            { class: 'timeline-entry' },
                            h('td', {}, clockTime(t.at)),
                            h('td', { class: t.step === 'ok' ? 's2xx' : t.step === 'fail' ? 's5xx' : '' }, t.step),
                            h('td', { class: 'wrap' }, t.detail),
                          ),
                        ),
                      ),
                    );
                  },
                },
                'Run',
              ),
            ),
          ),
        ),
      ),
      problems.length
        ? h(
            'ul',
            { id: 'scenario-problems' },
            problems.map((/** @type {string} */ p) => h('li', { class: 's5xx wrap' }, `not a scenario: ${p}`)),
          )
        : null,
      h('div', { id: 'timeline' }),
    ),
  );
}
