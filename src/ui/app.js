// The dashboard: shows and steers the simulation through the control API (/__sim) and /api/v1 only,
// as any script could. Plain DOM, no build step; every text from the server goes in as text, never as HTML.

const TOKEN_KEY = 'dipswitch-admin-token';
const ACCOUNT_KEY = 'dipswitch-account';
/**
 * The record lists the state browser offers: every list of /api/v1 (a GET without path parameters
 * whose operation lists), read from the served contract once, so the menu cannot name a path the
 * server does not have.
 */
let resources = [];

async function listResources() {
  if (resources.length) return resources;
  const contract = (await call('GET', '/api/v1/openapi')).body;
  resources = Object.entries(contract?.paths ?? {})
    .filter(([path, ops]) => !path.includes('{') && ops.get?.operationId?.startsWith('list'))
    .map(([path]) => path.replace('/api/v1/', ''));
  return resources;
}

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) ?? '',
  accounts: [],
  accountId: localStorage.getItem(ACCOUNT_KEY) ?? '',
  view: 'requests',
  /** Journal entries, newest first (live ones are added at the front). */
  calls: [],
  selectedCall: null,
  stream: null,
  timer: null,
};

// ---- DOM helpers

/** An element with attributes (`on*` functions are listeners) and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat())
    if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

const $ = (id) => document.getElementById(id);
const statusClass = (status) => `s${String(status)[0]}xx`;
const json = (value) => JSON.stringify(value, null, 2);
/** A body as text: indented when it is JSON. */
const pretty = (text) => {
  try {
    return json(JSON.parse(text));
  } catch {
    return text;
  }
};
const wallTime = (iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : '');
const clockTime = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');

function say(text, error = false) {
  const el = $('status');
  el.textContent = text;
  el.className = error ? 'status error' : 'status';
}

// ---- calls

function account() {
  return state.accounts.find((a) => a.id === state.accountId) ?? state.accounts[0];
}

/** The account's key for calls: its admin key, else its first active one. */
function accountKey() {
  const a = account();
  if (!a) return undefined;
  const active = a.keys.filter((k) => k.active);
  return (active.find((k) => k.role === 'admin') ?? active[0])?.key;
}

function headers(extra = {}) {
  const out = { ...extra };
  if (state.token) out['x-sim-admin-token'] = state.token;
  const key = accountKey();
  if (key) out.authorization = `Bearer ${key}`;
  return out;
}

class NeedsToken extends Error {}

/** A call to the control API or /api/v1 with the token and the account's key; answers the parsed body and status. */
async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (res.status === 403 && path.startsWith('/__sim')) {
    showToken(state.token ? 'That token was refused.' : '');
    throw new NeedsToken('the control API needs the admin token');
  }
  return { status: res.status, body: parsed };
}

async function sim(method, path, body) {
  const res = await call(method, path, body);
  if (res.status >= 400) {
    const detail = res.body?.errors?.[0]?.detail ?? `answered ${res.status}`;
    say(`${method} ${path}: ${detail}`, true);
    throw new Error(detail);
  }
  return res.body;
}

// ---- the token

function showToken(message) {
  $('token').hidden = false;
  $('view').replaceChildren();
  $('token-error').textContent = message;
  $('token-input').focus();
}

$('token').addEventListener('submit', (e) => {
  e.preventDefault();
  state.token = $('token-input').value;
  sessionStorage.setItem(TOKEN_KEY, state.token);
  $('token').hidden = true;
  void start();
});

// ---- the header: accounts, clock, tabs

async function loadAccounts() {
  state.accounts = (await sim('GET', '/__sim/accounts')).accounts;
  if (!state.accounts.some((a) => a.id === state.accountId)) state.accountId = state.accounts[0]?.id ?? '';
  const select = $('account');
  select.replaceChildren(
    ...state.accounts.map((a) =>
      h('option', { value: a.id, selected: a.id === state.accountId }, `${a.name} (${a.id.slice(0, 8)}…)`),
    ),
  );
}

$('account').addEventListener('change', (e) => {
  state.accountId = e.target.value;
  localStorage.setItem(ACCOUNT_KEY, state.accountId);
  void show(state.view);
});

async function refreshClock() {
  const clock = await sim('GET', '/__sim/clock');
  $('clock').textContent =
    `${clock.mode === 'frozen' ? '❄ frozen' : '▶ real'} · account clock ${clockTime(clock.now)} · wall ${wallTime(new Date().toISOString())}`;
  return clock;
}

for (const tab of document.querySelectorAll('#tabs button'))
  tab.addEventListener('click', () => void show(tab.dataset.view));

async function show(view) {
  state.view = view;
  clearInterval(state.timer);
  state.timer = null;
  for (const tab of document.querySelectorAll('#tabs button'))
    tab.classList.toggle('active', tab.dataset.view === view);
  try {
    await refreshClock();
    await VIEWS[view]();
  } catch (e) {
    if (!(e instanceof NeedsToken)) say(String(e.message ?? e), true);
  }
}

/** Re-renders the view every `ms` while it is shown. */
function every(ms, fn) {
  state.timer = setInterval(() => {
    fn().catch(() => undefined);
  }, ms);
}

// ---- Requests

function curlOf(entry) {
  const parts = [`curl -X ${entry.method} '${location.origin}${entry.path}'`];
  for (const [k, v] of Object.entries(entry.request.headers ?? {})) {
    if (['host', 'content-length', 'connection', 'accept-encoding'].includes(k)) continue;
    parts.push(`-H '${k}: ${String(v).replace(/'/g, "'\\''")}'`);
  }
  if (entry.request.body !== null && entry.request.body !== undefined)
    parts.push(
      `-d '${(typeof entry.request.body === 'string' ? entry.request.body : JSON.stringify(entry.request.body)).replace(/'/g, "'\\''")}'`,
    );
  return parts.join(' \\\n  ');
}

function callDetail(entry) {
  if (!entry) return h('p', { class: 'muted' }, 'Open a call to see its request and answer.');
  const errors = entry.response.body?.errors;
  return h(
    'div',
    { id: 'call-detail' },
    h('h2', {}, `${entry.method} ${entry.path} `, h('span', { class: statusClass(entry.status) }, entry.status)),
    h(
      'p',
      { class: 'muted' },
      `operation ${entry.operation_id ?? '—'} · account ${entry.account_id ?? '—'} · ${entry.latency_ms.toFixed(1)} ms · account clock ${clockTime(entry.at)} · wall ${entry.wall_at}`,
    ),
    h(
      'div',
      { class: 'toolbar' },
      h(
        'button',
        {
          onclick: async (e) => {
            const text = curlOf(entry);
            $('curl').textContent = text;
            // the clipboard may be refused (no permission, no focus): the command is shown either way
            const copied = await navigator.clipboard?.writeText(text).then(
              () => true,
              () => false,
            );
            e.target.textContent = copied ? 'Copied' : 'Shown below';
          },
        },
        'Copy as curl',
      ),
    ),
    h('pre', { id: 'curl', class: 'muted' }),
    Array.isArray(errors) && errors.length
      ? [
          h('h3', {}, 'Errors'),
          h(
            'table',
            {},
            h('tr', {}, h('th', {}, 'pointer'), h('th', {}, 'code'), h('th', {}, 'detail')),
            errors.map((e) =>
              h(
                'tr',
                {},
                h('td', {}, e.source?.pointer ?? e.source?.parameter ?? '—'),
                h('td', {}, e.code),
                h('td', { class: 'wrap' }, e.detail),
              ),
            ),
          ),
        ]
      : null,
    h('h3', {}, 'Request headers'),
    h('pre', {}, json(entry.request.headers)),
    h('h3', {}, 'Request body'),
    h('pre', {}, entry.request.body === null ? '(none)' : json(entry.request.body)),
    h('h3', {}, 'Answer'),
    h('pre', { id: 'answer-body' }, entry.response.body === null ? '(none)' : json(entry.response.body)),
  );
}

function requestFilters() {
  return {
    api: $('f-api')?.value ?? 'v1',
    path: $('f-path')?.value ?? '',
    status: $('f-status')?.value ?? '',
    operation: $('f-operation')?.value ?? '',
    mine: $('f-mine')?.checked ?? false,
  };
}

function matches(entry, f) {
  return (
    (!f.path || entry.path.includes(f.path)) &&
    (!f.status || String(entry.status).startsWith(f.status)) &&
    (!f.operation || (entry.operation_id ?? '').includes(f.operation)) &&
    (!f.mine || entry.account_id === state.accountId)
  );
}

function renderCalls() {
  const f = requestFilters();
  const rows = state.calls.filter((e) => matches(e, f)).slice(0, 500);
  $('calls').replaceChildren(
    h(
      'tr',
      {},
      ['wall', 'account clock', 'method', 'path', 'status', 'ms', 'operation'].map((t) => h('th', {}, t)),
    ),
    ...rows.map((e) =>
      h(
        'tr',
        {
          class: `row call${state.selectedCall?.id === e.id ? ' selected' : ''}`,
          'data-id': e.id,
          onclick: () => {
            state.selectedCall = e;
            renderCalls();
            $('detail').replaceChildren(callDetail(e));
          },
        },
        h('td', {}, wallTime(e.wall_at)),
        h('td', { class: 'muted' }, clockTime(e.at)),
        h('td', {}, e.method),
        h('td', { class: 'wrap path' }, e.path),
        h('td', { class: statusClass(e.status) }, e.status),
        h('td', {}, e.latency_ms.toFixed(1)),
        h('td', { class: 'muted' }, e.operation_id ?? ''),
      ),
    ),
  );
  $('calls-count').textContent = `${rows.length} shown · live`;
}

/** Reads the journal's server-sent events through fetch (EventSource cannot send the token). */
async function follow(api) {
  state.stream?.abort();
  const controller = new AbortController();
  state.stream = controller;
  const res = await fetch(`/__sim/requests/stream?api=${api}`, { headers: headers(), signal: controller.signal });
  if (!res.ok || !res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ done: true }));
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (!data) continue;
      const entry = JSON.parse(data);
      if (!state.calls.some((c) => c.id === entry.id)) state.calls.unshift(entry);
      state.calls.length = Math.min(state.calls.length, 2000);
      if (state.view === 'requests' && $('calls')) renderCalls();
    }
  }
}

const VIEWS = {
  async requests() {
    const f = requestFilters();
    const view = h(
      'div',
      { class: 'split' },
      h(
        'section',
        {},
        h('h2', {}, 'Requests ', h('span', { id: 'calls-count', class: 'muted' })),
        h(
          'div',
          { class: 'toolbar' },
          h(
            'select',
            { id: 'f-api', 'aria-label': 'API', onchange: () => void show('requests') },
            ['v1', 'sim', 'all'].map((a) =>
              h(
                'option',
                { value: a, selected: a === f.api },
                a === 'v1' ? '/api/v1' : a === 'sim' ? '/__sim' : 'both',
              ),
            ),
          ),
          h('input', { id: 'f-path', placeholder: 'path contains', value: f.path, oninput: renderCalls }),
          h('input', {
            id: 'f-status',
            placeholder: 'status (2, 4, 404…)',
            size: 14,
            value: f.status,
            oninput: renderCalls,
          }),
          h('input', { id: 'f-operation', placeholder: 'operation', value: f.operation, oninput: renderCalls }),
          h(
            'label',
            {},
            h('input', { id: 'f-mine', type: 'checkbox', checked: f.mine, onchange: renderCalls }),
            ' this account only',
          ),
        ),
        h('div', { class: 'scroll' }, h('table', { id: 'calls' })),
      ),
      h('section', { id: 'detail' }, callDetail(state.selectedCall)),
    );
    $('view').replaceChildren(view);
    const page = await sim('GET', `/__sim/requests?api=${f.api}&limit=200`);
    const live = state.calls.filter((c) => !page.requests.some((p) => p.id === c.id));
    state.calls = [...page.requests, ...live].sort((a, b) => b.id - a.id);
    renderCalls();
    void follow(f.api);
  },

  async deliveries() {
    const render = async () => {
      const { deliveries } = await sim('GET', '/__sim/deliveries');
      const open = new Set([...document.querySelectorAll('details[open]')].map((d) => d.dataset.id));
      $('view').replaceChildren(
        h(
          'section',
          {},
          h('h2', {}, `Deliveries of ${account()?.name ?? ''} `, h('span', { class: 'muted' }, `${deliveries.length}`)),
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
                  ` ${d.kind} · ${d.method} ${d.target} · ${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}`,
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
                        await sim('POST', `/__sim/deliveries/${encodeURIComponent(d.id)}/redeliver`);
                        say(`redelivered ${d.id}`);
                        await render();
                      },
                    },
                    'Redeliver now',
                  ),
                  h('span', { class: 'muted' }, `queued ${clockTime(d.inserted_at)}`),
                  d.note ? h('span', { class: 'muted' }, d.note) : null,
                ),
                h(
                  'table',
                  { class: 'attempts' },
                  h(
                    'tr',
                    {},
                    ['account clock', 'status', 'error', 'ms'].map((t) => h('th', {}, t)),
                  ),
                  d.attempts.map((a) =>
                    h(
                      'tr',
                      {},
                      h('td', {}, clockTime(a.at)),
                      h('td', { class: a.status ? statusClass(a.status) : 'muted' }, a.status ?? '—'),
                      h('td', { class: 'wrap' }, a.error ?? ''),
                      h('td', {}, a.duration_ms.toFixed(1)),
                    ),
                  ),
                ),
                h('h3', {}, 'Body'),
                h('pre', {}, pretty(d.body)),
              ),
            ),
        ),
      );
    };
    await render();
    every(2000, render);
  },

  async clock() {
    const render = async () => {
      const clock = await refreshClock();
      const advance = async (body) => {
        const result = await sim('POST', '/__sim/clock/advance', body);
        say(`now ${clockTime(result.now)}; ${result.fired.length} step${result.fired.length === 1 ? '' : 's'} ran`);
        await render();
      };
      $('view').replaceChildren(
        h(
          'section',
          {},
          h(
            'h2',
            {},
            `Clock of ${account()?.name ?? ''}: `,
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
                    h(
                      'td',
                      { class: 'muted' },
                      `${Math.round((Date.parse(s.at) - Date.parse(clock.now)) / 60000)} min`,
                    ),
                    h('td', {}, s.kind),
                    h('td', { class: 'wrap' }, s.ref),
                  ),
                ),
              ),
        ),
      );
    };
    await render();
  },

  async state() {
    const accounts = h(
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
    const snapshots = (await sim('GET', '/__sim/snapshots')).snapshots;
    const snapshotSection = h(
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
    const browser = h(
      'section',
      {},
      h('h2', {}, `Records of ${account()?.name ?? ''}`),
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
    $('view').replaceChildren(accounts, browser, snapshotSection);
    await browse();
  },

  async faults() {
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
  },

  async scenarios() {
    const { scenarios } = await sim('GET', '/__sim/scenarios');
    $('view').replaceChildren(
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
                        result.error ? h('p', { class: 'error' }, result.error) : null,
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
        h('div', { id: 'timeline' }),
      ),
    );
  },
};

async function browse(cursor) {
  state.resource = $('resource')?.value ?? state.resource ?? 'carts';
  const query = new URLSearchParams({ first: '25' });
  if (cursor) query.set('after', cursor);
  const res = await call('GET', `/api/v1/${state.resource}?${query}`);
  const target = $('records');
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
    list.page_info.has_next_page ? h('button', { onclick: () => void browse(list.page_info.last) }, 'Next page') : null,
    h('div', { id: 'record' }),
  );
}

async function start() {
  try {
    await loadAccounts();
    $('token').hidden = true;
    await show(state.view);
  } catch (e) {
    if (!(e instanceof NeedsToken)) say(String(e.message ?? e), true);
  }
}

void start();
