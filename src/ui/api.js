// @ts-check
// What the dashboard knows and how it calls: its state, the two APIs (the admin token and the account key), the token prompt.
import { $, say } from './dom.js';

export const TOKEN_KEY = 'dipswitch-admin-token';
export const ACCOUNT_KEY = 'dipswitch-account';
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
 *   selectedCall: Entry | null, stream: AbortController | null, timer: ReturnType<typeof setInterval> | null,
 *   resource?: string, [more: string]: unknown,
 * }}
 */
export const state = {
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

// ---- calls

export function account() {
  return state.accounts.find((a) => a.id === state.accountId) ?? state.accounts[0];
}

/** The account's key for calls: its admin key, else its first active one. */
export function accountKey() {
  const a = account();
  if (!a) return undefined;
  const active = a.keys.filter((k) => k.active);
  return (active.find((k) => k.role === 'admin') ?? active[0])?.key;
}

export function headers(extra = {}) {
  /** @type {Record<string, string>} */
  const out = { ...extra };
  if (state.token) out['x-sim-admin-token'] = state.token;
  const key = accountKey();
  if (key) out.authorization = `Bearer ${key}`;
  return out;
}

export class NeedsToken extends Error {}

/** A call to the control API or /api/v1 with the token and the account's key; answers the parsed body and status. */
export async function call(method, path, body) {
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

export async function sim(method, path, body) {
  const res = await call(method, path, body);
  if (res.status >= 400) {
    const detail = res.body?.errors?.[0]?.detail ?? `answered ${res.status}`;
    say(`${method} ${path}: ${detail}`, true);
    throw new Error(detail);
  }
  return res.body;
}

// ---- the token

export function showToken(message) {
  $('token').hidden = false;
  $('view').replaceChildren();
  $('token-error').textContent = message;
  $('token-input').focus();
}
