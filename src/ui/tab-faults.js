// @ts-check
// Faults: the rules, and a form to add one.
import { sim } from './api.js';
import { $, h, say } from './dom.js';
import { show } from './shell.js';

export async function faultsView() {
  const { faults } = await sim('GET', '/__sim/faults');
  const field = (id, placeholder, size) => h('input', { id, placeholder, size, 'aria-label': placeholder });
  $('view').replaceChildren(
    h(
      'section',
      {},
      h('h2', {}, 'Fault rules'),
      faults.length === 0 ? h('p', { class: 'muted' }, 'No rule: every call is served.') : null,
      h(
        'table',
        { id: 'faults' },
        h(
          'tr',
          {},
          ['match', 'effect', 'times', 'fired', ''].map((t) => h('th', {}, t)),
        ),
        faults.map((f) =>
          h(
            'tr',
            {},
            h('td', { class: 'wrap' }, JSON.stringify(f.match)),
            h('td', { class: 'wrap' }, JSON.stringify(f.effect)),
            h('td', {}, f.times ?? '∞'),
            h('td', { class: 'fired' }, f.fired),
            h(
              'td',
              {},
              h(
                'button',
                {
                  onclick: async () => {
                    await sim('DELETE', `/__sim/faults/${encodeURIComponent(f.id)}`);
                    await show('faults');
                  },
                },
                'Remove',
              ),
            ),
          ),
        ),
      ),
      h('h3', {}, 'Add a rule'),
      h(
        'form',
        {
          id: 'fault-form',
          class: 'toolbar',
          onsubmit: async (e) => {
            e.preventDefault();
            const match = {};
            for (const k of ['method', 'path', 'operation_id', 'url'])
              if ($(`fault-${k}`).value) match[k] = $(`fault-${k}`).value;
            const effect = {};
            if ($('fault-status').value) effect.status = Number($('fault-status').value);
            if ($('fault-delay').value) effect.delay_ms = Number($('fault-delay').value);
            for (const k of ['drop', 'malformed', 'fail', 'duplicate', 'reorder'])
              if ($(`fault-${k}`).checked) effect[k] = true;
            const rule = { match, effect };
            if ($('fault-times').value) rule.times = Number($('fault-times').value);
            await sim('POST', '/__sim/faults', rule);
            say('rule added');
            await show('faults');
          },
        },
        field('fault-method', 'method', 6),
        field('fault-path', 'path (/api/v1/carts/{id})', 22),
        field('fault-operation_id', 'operation', 14),
        field('fault-url', 'delivery URL prefix', 20),
        field('fault-status', 'status', 6),
        field('fault-delay', 'delay ms', 8),
        ['drop', 'malformed', 'fail', 'duplicate', 'reorder'].map((k) =>
          h('label', {}, h('input', { id: `fault-${k}`, type: 'checkbox' }), ` ${k}`),
        ),
        field('fault-times', 'times', 5),
        h('button', { type: 'submit', class: 'primary' }, 'Add rule'),
      ),
    ),
  );
}
