// @ts-check
// State: accounts and sandboxes, snapshots, and the record browser (its lists read from the contract).
import { acting, call, listResources, paint, sim, state } from './api.js';
import { $, h, json, maybe$, say } from './dom.js';
import { loadAccounts, show } from './shell.js';

export async function stateView() {
  paint('state', accountsSection(), await browserSection(), await snapshotsSection());
  await browse();
}

/** The accounts and their keys, with delete, and a new sandbox. */
function accountsSection() {
  return h(
    'section',
    {},
    h('h2', {}, 'Accounts and keys'),
    h(
      'table',
      {},
      h(
        'tr',
        {},
        ['name', 'id', 'keys', ''].map((t) => h('th', {}, t)),
      ),
      state.accounts.map((a) =>
        h(
          'tr',
          {},
          h('td', {}, a.name),
          h('td', { class: 'muted' }, a.id),
          h('td', { class: 'wrap' }, a.keys.map((k) => `${k.key} (${k.role ?? k.kind})`).join(', ')),
          h(
            'td',
            {},
            h(
              'button',
              {
                onclick: async () => {
                  if (!confirm(`Delete ${a.name} and everything it owns?`)) return;
                  await sim('DELETE', `/__sim/accounts/${a.id}`);
                  await loadAccounts();
                  await show('state');
                },
              },
              'Delete',
            ),
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'toolbar' },
      h('input', { id: 'sandbox-name', placeholder: 'sandbox name', 'aria-label': 'sandbox name' }),
      h(
        'button',
        {
          onclick: async () => {
            const name = $('sandbox-name').value;
            const box = await sim('POST', '/__sim/accounts', name ? { name } : {});
            say(`sandbox ${box.name} created`);
            await loadAccounts();
            await show('state');
          },
        },
        'Create sandbox',
      ),
    ),
  );
}

/** The saved snapshots, with restore, and a new one. */
async function snapshotsSection() {
  const snapshots = (await sim('GET', '/__sim/snapshots')).snapshots;
  return h(
    'section',
    {},
    h('h2', {}, 'Snapshots'),
    snapshots.length === 0 ? h('p', { class: 'muted' }, 'None saved.') : null,
    h(
      'table',
      {},
      snapshots.map((s) =>
        h(
          'tr',
          {},
          h('td', {}, s.name),
          h('td', { class: 'muted' }, `${Math.round(s.bytes / 1024)} KB`),
          h(
            'td',
            {},
            h(
              'button',
              {
                onclick: async () => {
                  await sim('POST', `/__sim/snapshots/${encodeURIComponent(s.name)}/restore`);
                  say(`restored ${s.name}`);
                  await show('state');
                },
              },
              'Restore',
            ),
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'toolbar' },
      h('input', { id: 'snapshot-name', placeholder: 'snapshot name', 'aria-label': 'snapshot name' }),
      h(
        'button',
        {
          onclick: async () => {
            await sim('POST', '/__sim/snapshots', { name: $('snapshot-name').value });
            await show('state');
          },
        },
        'Save',
      ),
    ),
  );
}

/** The current account's records, one resource at a time. */
async function browserSection() {
  return h(
    'section',
    {},
    h('h2', {}, `Records of ${acting()?.name ?? ''}`),
    h(
      'div',
      { class: 'toolbar' },
      h(
        'select',
        { id: 'resource', 'aria-label': 'resource', onchange: () => void browse() },
        (await listResources()).map((r) => h('option', { value: r, selected: r === state.resource }, r)),
      ),
      h('button', { onclick: () => void browse() }, 'Refresh'),
    ),
    h('div', { id: 'records' }),
  );
}

export async function browse(cursor) {
  state.resource = maybe$('resource')?.value ?? state.resource ?? 'carts';
  const query = new URLSearchParams({ first: '25' });
  if (cursor) query.set('after', cursor);
  const res = await call('GET', `/api/v1/${state.resource}?${query}`);
  const target = maybe$('records');
  if (!target) return;
  if (res.status !== 200) {
    target.replaceChildren(
      h('p', { class: 'error' }, `GET /api/v1/${state.resource} answered ${res.status}`),
      h('pre', {}, json(res.body)),
    );
    return;
  }
  const list = res.body;
  const records = list.results.map((r) => r.data ?? r);
  const columns = ['id', 'name', 'number', 'status', 'type', 'inserted_at'].filter((c) =>
    records.some((r) => r[c] !== undefined),
  );
  target.replaceChildren(
    h('p', { class: 'muted' }, `${list.count} in all`),
    h(
      'table',
      { id: 'record-table' },
      h(
        'tr',
        {},
        columns.map((c) => h('th', {}, c)),
      ),
      records.map((r) =>
        h(
          'tr',
          { class: 'row record', onclick: () => $('record').replaceChildren(h('pre', {}, json(r))) },
          columns.map((c) =>
            h('td', { class: c === 'status' ? `record-status` : c === 'id' ? 'muted' : '' }, r[c] ?? ''),
          ),
        ),
      ),
    ),
    list.page_info.has_next_page ? h('button', { onclick: () => void browse(list.page_info.last) }, 'Next page') : '',
    h('div', { id: 'record' }),
  );
}
