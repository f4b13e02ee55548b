// @ts-check
// Faults: the rules that reach the account picked (its own and the server's), or every rule, and a form to add one.
import { account, paint, server, sim, state } from './api.js';
import { $, h, say } from './dom.js';
import { show } from './shell.js';

/** A rule's row: its reach (server-wide, or the account it is narrowed to), match, effect, times, firings. */
function ruleRow(f) {
  return h(
    'tr',
    { class: f.match.account_id === undefined ? 'rule server-wide' : 'rule' },
    h(
      'td',
      { class: 'reach' },
      f.match.account_id === undefined
        ? 'server-wide: every account'
        : (state.accounts.find((a) => a.id === f.match.account_id)?.name ?? f.match.account_id),
    ),
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
            await server('DELETE', `/__sim/faults/${encodeURIComponent(f.id)}`);
            await show('faults');
          },
        },
        'Remove',
      ),
    ),
  );
}

export async function faultsView() {
  // every rule, with the authority: an account's calls meet its own rules and the server's
  const every = (await server('GET', '/__sim/faults')).faults;
  const faults = every.filter(
    (f) => !state.accountId || f.match.account_id === undefined || f.match.account_id === state.accountId,
  );
  const picked = account();
  const field = (id, placeholder, size) => h('input', { id, placeholder, size, 'aria-label': placeholder });
  paint(
    'faults',
    h(
      'section',
      {},
      h('h2', {}, `Fault rules ${picked ? `reaching ${picked.name}` : 'of every account'}`),
      faults.length === 0 ? h('p', { class: 'muted' }, 'No rule: every call is served.') : null,
      h(
        'table',
        { id: 'faults' },
        h(
          'tr',
          {},
          ['reach', 'match', 'effect', 'times', 'fired', ''].map((t) => h('th', {}, t)),
        ),
        faults.map(ruleRow),
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
            if ($('fault-any').checked) match.any = true;
            for (const k of ['method', 'path', 'operation_id', 'url'])
              if ($(`fault-${k}`).value) match[k] = $(`fault-${k}`).value;
            const effect = {};
            if ($('fault-status').value) effect.status = Number($('fault-status').value);
            if ($('fault-delay').value) effect.delay_ms = Number($('fault-delay').value);
            for (const k of ['drop', 'malformed', 'fail', 'duplicate', 'reorder'])
              if ($(`fault-${k}`).checked) effect[k] = true;
            const rule = { match, effect };
            if ($('fault-times').value) rule.times = Number($('fault-times').value);
            // with an account picked, the rule is its own (made with its key); else the server's, for every account
            const made = await sim('POST', '/__sim/faults', rule, !picked);
            say(made.warning ?? 'rule added');
            await show('faults');
          },
        },
        h('label', {}, h('input', { id: 'fault-any', type: 'checkbox' }), ' every call'),
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
