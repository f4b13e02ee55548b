/** A read of the control API scoped as the coverage is (a key, a run, an account): `coverage` and `footprint`. */
import { Stop } from './stop.js';

export interface ScopeFlags {
  url: string;
  key?: string;
  run?: string;
  accountId?: string;
  adminToken?: string;
}

/** GET `path` of a running dipswitch for the scope the flags name: its JSON, or a one-line Stop. */
export async function scopedGet(path: string, f: ScopeFlags): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (f.key) headers.authorization = `Bearer ${f.key}`;
  if (f.adminToken) headers['x-sim-admin-token'] = f.adminToken;
  let res: Response;
  try {
    const target = new URL(path, f.url);
    if (f.run) target.searchParams.set('run', f.run);
    if (f.accountId) target.searchParams.set('account_id', f.accountId);
    res = await fetch(target, { headers });
  } catch (e) {
    throw new Stop(`cannot reach ${f.url}: ${(e as Error).message}`, 1);
  }
  const text = await res.text();
  if (res.status !== 200) throw new Stop(`${f.url} answered ${res.status}: ${text.slice(0, 300)}`, 1);
  return JSON.parse(text);
}
