// @ts-check
// The page around the views: the token form, the account menu, the clock line, the tabs, and which view is shown.
import { ACCOUNT_KEY, NeedsToken, sim, state, TOKEN_KEY } from './api.js';
import { $, all, clockTime, h, say, wallTime } from './dom.js';

/** The views by tab name (app.js fills it). */
export const views = {};

$('token').addEventListener('submit', (e) => {
  e.preventDefault();
  state.token = $('token-input').value;
  sessionStorage.setItem(TOKEN_KEY, state.token);
  $('token').hidden = true;
  void start();
});

// ---- the header: accounts, clock, tabs

export async function loadAccounts() {
  state.accounts = (await sim('GET', '/__sim/accounts')).accounts;
  if (!state.accounts.some((a) => a.id === state.accountId)) state.accountId = '';
  const select = $('account');
  select.replaceChildren(
    h('option', { value: '', selected: state.accountId === '' }, 'All accounts'),
    ...state.accounts.map((a) =>
      h('option', { value: a.id, selected: a.id === state.accountId }, `${a.name} (${a.id.slice(0, 8)}…)`),
    ),
  );
}

$('account').addEventListener('change', () => {
  state.accountId = $('account').value;
  localStorage.setItem(ACCOUNT_KEY, state.accountId);
  void show(state.view);
});

export async function refreshClock() {
  const clock = await sim('GET', '/__sim/clock');
  $('clock').textContent =
    `${clock.mode === 'frozen' ? '❄ frozen' : '▶ real'} · account clock ${clockTime(clock.now)} · wall ${wallTime(new Date().toISOString())}`;
  return clock;
}

for (const tab of all('#tabs button')) tab.addEventListener('click', () => void show(tab.dataset.view));

/** The view a link names (`#faults`), if it names one. */
const linked = () => {
  const view = decodeURIComponent(location.hash.slice(1));
  return view in views ? view : undefined;
};

window.addEventListener('hashchange', () => {
  const view = linked();
  if (view && view !== state.view) void show(view);
});

export async function show(view) {
  state.view = view;
  // each tab has a link of its own, to open, share and screenshot it directly
  if (location.hash !== `#${view}`) history.replaceState(null, '', `#${view}`);
  clearInterval(state.timer ?? undefined);
  state.timer = null;
  for (const tab of all('#tabs button')) tab.classList.toggle('active', tab.dataset.view === view);
  try {
    await refreshClock();
    await views[view]();
  } catch (e) {
    if (!(e instanceof NeedsToken)) say(e instanceof Error ? e.message : String(e), true);
  }
}

/** Re-renders the view every `ms` while it is shown. */
export function every(ms, fn) {
  state.timer = setInterval(() => {
    // a failed call was shown to the user already (say() in api.js); the next tick tries again
    fn().catch(() => undefined);
  }, ms);
}

export async function start() {
  try {
    await loadAccounts();
    $('token').hidden = true;
    await show(linked() ?? state.view);
  } catch (e) {
    if (!(e instanceof NeedsToken)) say(e instanceof Error ? e.message : String(e), true);
  }
}
