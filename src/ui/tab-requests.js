// @ts-check
// Requests: the journal, live, and one call opened to its request, answer and errors.
import { headers, paint, server, state } from './api.js';
import { $, clockTime, h, json, maybe$, statusClass, traceLink, wallTime } from './dom.js';
import { show } from './shell.js';

/** The traffic the journal keeps: /api/v1, /__sim, SMPP PDUs (method the command, status the command_status), or all. */
const API_NAMES = { v1: '/api/v1', sim: '/__sim', smpp: 'SMPP', all: 'all' };

// ---- Requests

export function curlOf(entry) {
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

export function callDetail(entry) {
  if (!entry) return h('p', { class: 'muted' }, 'Open a call to see its request and answer.');
  const errors = entry.response.body?.errors;
  return h(
    'div',
    { id: 'call-detail' },
    h(
      'h2',
      {},
      `${entry.method} ${entry.path} `,
      h('span', { class: entry.status === null ? 'muted' : statusClass(entry.status) }, entry.status ?? 'dropped'),
    ),
    h(
      'p',
      { class: 'muted' },
      `operation ${entry.operation_id ?? '—'} · account ${entry.account_id ?? '—'} · ${entry.latency_ms.toFixed(1)} ms · account clock ${clockTime(entry.at)} · wall ${entry.wall_at}`,
      entry.trace_id ? ' · trace ' : null,
      traceLink(entry.trace_id),
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

export function requestFilters() {
  return {
    api: maybe$('f-api')?.value ?? 'v1',
    path: maybe$('f-path')?.value ?? '',
    status: maybe$('f-status')?.value ?? '',
    operation: maybe$('f-operation')?.value ?? '',
  };
}

export function matches(entry, f) {
  return (
    (!f.path || entry.path.includes(f.path)) &&
    (!f.status || String(entry.status).startsWith(f.status)) &&
    (!f.operation || (entry.operation_id ?? '').includes(f.operation)) &&
    (!state.accountId || entry.account_id === state.accountId)
  );
}

export function renderCalls() {
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
        h('td', { class: e.status === null ? 'muted' : statusClass(e.status) }, e.status ?? 'dropped'),
        h('td', {}, e.latency_ms.toFixed(1)),
        h('td', { class: 'muted' }, e.operation_id ?? ''),
      ),
    ),
  );
  $('calls-count').textContent = `${rows.length} shown · ${state.live ? 'live' : 'connecting'}`;
}

/**
 * Follows the journal live. The calls journaled before the stream opened are read once it is open, so
 * none falls between the two. A stream that ends or fails without being stopped (the network changed
 * under the browser, the server restarted) is followed again a second later.
 */
export async function follow(api) {
  state.stream?.abort();
  const controller = new AbortController();
  state.stream = controller;
  const current = () => !controller.signal.aborted && state.stream === controller;
  try {
    await readStream(api, controller.signal);
  } catch {
    // a stream cut by the network or the server is followed again below; one stopped is not
  }
  if (!current()) return;
  state.live = false;
  renderIfShown();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if (current()) void follow(api);
}

/** Reads the journal's server-sent events through fetch (EventSource cannot send the token) until the stream ends. */
async function readStream(api, signal) {
  const res = await fetch(`/__sim/requests/stream?api=${api}`, { headers: headers({}, true), signal });
  // the server follows the journal before it answers: what came before is in the page read now (a stream
  // refused, too many open or the token changed, still shows the journal as it stands; followed again later)
  await catchUp(api).catch(() => undefined); // said by sim(); the stream is read all the same
  if (!res.ok || !res.body || signal.aborted) return;
  state.live = true;
  renderIfShown();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
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
      renderIfShown();
    }
  }
}

/** Renders the calls again if the Requests tab is the one shown (a stream outlives a change of tab). */
function renderIfShown() {
  if (state.view === 'requests' && $('calls')) renderCalls();
}

/** The newest calls of the journal merged with those already shown (the server's view: every account's). */
async function catchUp(api) {
  const page = await server('GET', `/__sim/requests?api=${api}&limit=200`);
  const live = state.calls.filter((c) => !page.requests.some((p) => p.id === c.id));
  state.calls = [...page.requests, ...live].sort((a, b) => b.id - a.id);
  renderIfShown();
}

/** Which accounts wait for their turn on this instance (GET /__sim/admission), in a line above the calls. */
async function showAdmission() {
  const { limits, accounts } = await server('GET', '/__sim/admission');
  const line = maybe$('admission');
  if (!line) return;
  const named = (id) => state.accounts.find((a) => a.id === id)?.name ?? id;
  const busy = accounts.filter((a) => a.waiting > 0 || a.refused > 0);
  line.textContent = busy.length
    ? `Waiting for their turn: ${busy
        .map(
          (a) =>
            `${named(a.account_id)}: ${a.waiting} waiting, ${a.running} in the works, ${a.refused} refused, ${a.mean_wait_ms} ms mean wait`,
        )
        .join('; ')}`
    : `No account waits for its turn (at most ${limits.account_in_flight} calls of an account in the works, ${limits.calls_in_flight} in all).`;
}

export async function requestsView() {
  const f = requestFilters();
  const view = h(
    'div',
    { class: 'split' },
    h(
      'section',
      {},
      h('h2', {}, 'Requests ', h('span', { id: 'calls-count', class: 'muted' })),
      h('p', { id: 'admission', class: 'muted' }),
      h(
        'div',
        { class: 'toolbar' },
        h(
          'select',
          { id: 'f-api', 'aria-label': 'API', onchange: () => void show('requests') },
          Object.entries(API_NAMES).map(([a, name]) => h('option', { value: a, selected: a === f.api }, name)),
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
      ),
      h('div', { class: 'scroll' }, h('table', { id: 'calls' })),
    ),
    h('section', { id: 'detail' }, callDetail(state.selectedCall)),
  );
  paint('requests', view);
  state.live = false;
  renderCalls();
  void showAdmission();
  // the server's view: every account's calls, those refused before an account was known included
  void follow(f.api);
}
