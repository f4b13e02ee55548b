/**
 * Who is calling: an API key presented as `Bearer <key>` or `Basic base64(identity:secret)`
 * (interface.md section 2), and whether that caller may perform the operation.
 */
import { mayAct } from '../domain/permissions.js';
import { secretMatches } from '../domain/secrets.js';
import type { ApiKeyRow, UserRow } from '../store/rows.js';
import type { UnitOfWork } from '../store/store.js';
import type { Scope } from '../contract.js';
import { DomainError } from '../domain/errors.js';

export interface Principal {
  accountId: string;
  key: ApiKeyRow;
  /** The user an impersonated key acts for; null for a standard key. */
  user: UserRow | null;
}

const unauthenticated = (sub_code: 'missing_key' | 'unknown_key' | 'inactive_key', detail: string): DomainError =>
  new DomainError('access_denied.unauthenticated', [{ detail, sub_code }]);

async function keyFromHeader(store: UnitOfWork, header: string | undefined): Promise<ApiKeyRow> {
  const [scheme = '', value = ''] = (header ?? '').trim().split(/\s+/, 2);
  if (!value) throw unauthenticated('missing_key', 'An API key is required: Authorization: Bearer <key>.');
  if (scheme.toLowerCase() === 'bearer') {
    const key = await store.apiKeys.byKey(value);
    if (!key) throw unauthenticated('unknown_key', 'The API key is not known.');
    return key;
  }
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const key = colon > 0 ? await store.apiKeys.byIdentity(decoded.slice(0, colon)) : undefined;
    if (!key || !secretMatches(decoded.slice(colon + 1), key.secret_hash)) {
      throw unauthenticated('unknown_key', 'The identity and secret do not match an API key.');
    }
    return key;
  }
  throw unauthenticated('missing_key', 'The Authorization scheme must be Bearer or Basic.');
}

/** The caller behind the Authorization header, or a 403 `access_denied.unauthenticated`. */
export async function authenticate(store: UnitOfWork, header: string | undefined): Promise<Principal> {
  const key = await keyFromHeader(store, header);
  if (!key.data.active) throw unauthenticated('inactive_key', 'The API key is not active.');
  const user = key.user_id ? ((await store.users.get(key.account_id, key.user_id)) ?? null) : null;
  if (key.user_id && !user) throw unauthenticated('unknown_key', "The API key's user no longer exists.");
  return { accountId: key.account_id, key, user };
}

/** Throws 403 `access_denied.no_scope` unless the caller may act on the scope. */
export function authorize(principal: Principal, scope: Scope): void {
  const caller = { role: principal.user?.role ?? null, suspended: principal.user?.suspended ?? false };
  if (!mayAct(caller, scope)) {
    throw new DomainError('access_denied.no_scope', [
      {
        detail: `This key may not ${scope.action} ${scope.resource}.`,
        params: { action: scope.action, level: 'account', resource: scope.resource },
      },
    ]);
  }
}
