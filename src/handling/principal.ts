/**
 * Who is calling: an API key presented as `Bearer <key>` or `Basic base64(identity:secret)`
 * (interface.md section 2), and whether that caller may perform the operation.
 */
import { mayAct } from '../domain/permissions.js';
import { secretMatches } from '../domain/secrets.js';
import type { ApiKeyRow, UserRow } from '../domain/rows.js';
import type { CallerRows, KeyLookup } from '../store/store.js';
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

/**
 * Where the Authorization header points: a key by one of its unique indexes, and the secret Basic
 * gives; throws 403 `access_denied.unauthenticated` when it names no key.
 */
export function credentialsIn(header: string | undefined): { key: KeyLookup; secret?: string } {
  const [scheme = '', value = ''] = (header ?? '').trim().split(/\s+/, 2);
  if (!scheme) throw unauthenticated('missing_key', 'An API key is required: Authorization: Bearer <key>.');
  if (!value)
    throw unauthenticated(
      'missing_key',
      'The Authorization header has no scheme before the key: send Authorization: Bearer <key>.',
    );
  if (scheme.toLowerCase() === 'bearer') return { key: { index: 'key', value } };
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw unauthenticated('unknown_key', 'The identity and secret do not match an API key.');
    return { key: { index: 'identity', value: decoded.slice(0, colon) }, secret: decoded.slice(colon + 1) };
  }
  throw unauthenticated('missing_key', 'The Authorization scheme must be Bearer or Basic.');
}

/** The caller behind the Authorization header, or why it may not call (403 `access_denied.unauthenticated`). */
export function principalOf(rows: CallerRows, basicSecret: string | undefined): Principal {
  const { key, user } = rows;
  if (!key || (basicSecret !== undefined && !secretMatches(basicSecret, key.secret_hash)))
    throw unauthenticated(
      'unknown_key',
      basicSecret === undefined ? 'The API key is not known.' : 'The identity and secret do not match an API key.',
    );
  if (!key.data.active) throw unauthenticated('inactive_key', 'The API key is not active.');
  if (key.user_id && !user) throw unauthenticated('unknown_key', "The API key's user no longer exists.");
  return { accountId: key.account_id, key, user: user ?? null };
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

/**
 * Whether an Authorization still names an active key of an account (a listener's stream closes when
 * not); a store that fails to answer keeps it (only a refusal says no).
 */
export async function admits(caller: (key: KeyLookup) => Promise<CallerRows>, authorization: string): Promise<boolean> {
  try {
    const { key, secret } = credentialsIn(authorization);
    principalOf(await caller(key), secret);
    return true;
  } catch (e) {
    return !(e instanceof DomainError);
  }
}
