// @ts-check
// What the dashboard knows and how it calls: its state, the two APIs (the admin token and the account key), the token prompt.
// It shows the server: with the admin token (or on a server without one) its lists span every account, narrowed by the
// account picked; only what acts on one account (its clock, its records) goes with that account's key. Every call it
// makes says it is the dashboard's (DASHBOARD_HEADER), so the server neither journals it nor counts it in coverage.
import { $, say } from './dom.js';

export const TOKEN_KEY = 'dipswitch-admin-token';
export const ACCOUNT_KEY = 'dipswitch-account';
/** The header that marks the dashboard's own calls (src/http/answer.ts). */
export const DASHBOARD_HEADER = 'x-dipswitch-dashboard';
/**
 * The record lists the state browser offers: every list of /api/v1 (a GET without path parameters
 * whose operation lists), read from the served contract once, so the menu cannot name a path the
 * server does not have.
 */
/** @type {string[]} */
export let resources = [];

export async function listResources() {
  if (resources.length) return resources;
  const contract = (await call('GET', '/api/v1/openapi')).body;
  resources = Object.entries(contract?.paths ?? {})
    .filter(([path, ops]) => !path.includes('{') && ops.get?.operationId?.startsWith('list'))
    .map(([path]) => path.replace('/api/v1/', ''));
  return resources;
}

/**
 * @typedef {{ key: string, role?: string, kind?: string, active: boolean }} Key
 * @typedef {{ id: string, name: string, keys: Key[] }} Account
 * @typedef {{ id: string, [field: string]: any }} Entry a journal entry (contract/sim.yaml)
 */

/**
 * @type {{
 *   token: string, accounts: Account[], accountId: string, view: string, calls: Entry[],
 *   selectedCall: Entry | null, stream: AbortController | null, live: boolean, timer: ReturnType<typeof setInterval> | null,
 *   resource?: string, [more: string]: unknown,
 * }}
 */
export const state = {
  token: sessionStorage.getItem(TOKEN_KEY) ?? '',
  accounts: [],
  /** The account picked, or '' for every account (the server's view). */
  accountId: localStorage.getItem(ACCOUNT_KEY) ?? '',
  view: 'requests',
  /** Journal entries, newest first (live ones are added at the front). */
  calls: [],
  selectedCall: null,
  stream: null,
  /** The journal's stream is open and the calls before it are read. */
  live: false,
  timer: null,
};

// ---- calls

/** The account picked; none in the server's view (every account). */
export function account() {
  return state.accounts.find((a) => a.id === state.accountId);
}

/** The account what acts on one account (its clock, its records) acts on: the one picked, else the first (Demo). */
export function acting() {
  return account() ?? state.accounts[0];
}

/** The acting account's key for calls: its admin key, else its first active one. */
export function accountKey() {
  const a = acting();
  if (!a) return undefined;
  const active = a.keys.filter((k) => k.active);
  return (active.find((k) => k.role === 'admin') ?? active[0])?.key;
}

/**
 * The headers of a call: the dashboard's mark, the admin token, and the picked account's key unless
 * the call is one of the server's view (`server`: every account, narrowed by the dashboard itself).
 */
export function headers(extra = {}, server = false) {
  /** @type {Record<string, string>} */
  const out = { ...extra, [DASHBOARD_HEADER]: '1' };
  if (state.token) out['x-sim-admin-token'] = state.token;
  const key = server ? undefined : accountKey();
  if (key) out.authorization = `Bearer ${key}`;
  return out;
}

export class NeedsToken extends Error {}

/**
 * A call to the control API or /api/v1 with the token and the account's key (none with `server`);
 * answers the parsed body and status.
 */
export async function call(method, path, body, server = false) {
  const res = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }, server),
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

export async function sim(method, path, body, server = false) {
  const res = await call(method, path, body, server);
  if (res.status >= 400) {
    const detail = res.body?.errors?.[0]?.detail ?? `answered ${res.status}`;
    say(`${method} ${path}: ${detail}`, true);
    throw new Error(detail);
  }
  return res.body;
}

/** A call of the server's view: every account's, with the admin token and no account key. */
export const server = (method, path, body) => sim(method, path, body, true);

/** A query parameter narrowing a server-wide list to the picked account, if one is. */
export const accountQuery = () => (state.accountId ? `account_id=${encodeURIComponent(state.accountId)}` : '');

/**
 * Shows a view's nodes, if that view is still the one picked: a view whose answers came late (the
 * user, or a link, picked another tab meanwhile) draws nothing over the newer one.
 */
export function paint(view, ...nodes) {
  if (state.view === view) $('view').replaceChildren(...nodes);
}

// ---- the token

export function showToken(message) {
  $('token').hidden = false;
  $('view').replaceChildren();
  $('token-error').textContent = message;
  $('token-input').focus();
}
