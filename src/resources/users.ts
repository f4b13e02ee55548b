/**
 * Users (spec: Resources > User; Endpoints > Users). A new user gets its creator's role; a password
 * is kept only as a scrypt hash and never returned.
 */
import { hashPassword } from '../domain/secrets.js';
import { ApiError, assertFound, invalidField } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { UserRow } from '../store/rows.js';
import type { Store } from '../store/store.js';

const present = (row: UserRow) => ({ data: row.data, type: 'user' as const });

function assertEmailFree(store: Store, accountId: string, email: string, self?: string): void {
  const taken = store.users.list(accountId, (u) => u.data.email.toLowerCase() === email.toLowerCase() && u.data.id !== self);
  if (taken.length) throw invalidField('/data/email', 'A user with this email exists in the account.');
}

export const userHandlers = {
  createUser: async ({ deps, principal, body }) => {
    const { store, clock, ids, random } = deps;
    const { password, password_confirmation, address, email, first_name, last_name, title } = body.data;
    assertEmailFree(store, principal.accountId, email);
    if (password !== undefined && password_confirmation !== password) {
      throw invalidField('/data/password_confirmation', 'password_confirmation does not match password.');
    }
    if (password === undefined && password_confirmation !== undefined) {
      throw invalidField('/data/password', 'password is required with password_confirmation.');
    }
    const creator = principal.user;
    if (!creator) throw new ApiError('access_denied.no_scope', [{ detail: 'Only a user\'s key may create users.', params: { action: 'create', level: 'account', resource: 'user' } }]);
    const now = clock.iso();
    const row = store.users.insert({
      account_id: principal.accountId,
      role: creator.role,
      suspended: false,
      password_hash: password === undefined ? null : hashPassword(password, random.bytes(16)),
      data: {
        id: ids.uuid(),
        email,
        first_name: first_name ?? null,
        last_name: last_name ?? null,
        title: title ?? null,
        address: address ?? null,
        inserted_at: now,
        updated_at: now,
      },
    });
    await store.commit();
    return { status: 201, body: present(row) };
  },

  listUsers: (ctx) =>
    pageOf(ctx, ctx.deps.store.users.list(ctx.principal.accountId), present),

  getUser: ({ deps, principal, params }) => ({
    status: 200,
    body: present(assertFound(deps.store.users.get(principal.accountId, params.id), 'user', params.id)),
  }),

  updateUser: async ({ deps, principal, params, body }) => {
    const { store } = deps;
    const row = assertFound(store.users.get(principal.accountId, params.id), 'user', params.id);
    if (body.data.email !== undefined) assertEmailFree(store, principal.accountId, body.data.email, row.data.id);
    Object.assign(row.data, body.data, { updated_at: deps.clock.iso() });
    store.users.touch(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  deleteUser: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = assertFound(store.users.get(principal.accountId, params.id), 'user', params.id);
    if (principal.user?.data.id === row.data.id) throw invalidField('/', 'A user cannot delete itself.');
    const keys = store.apiKeys.list(principal.accountId, (k) => k.user_id === row.data.id);
    const bound = keys.filter((k) => store.switches.usingApiKey(k.data.id).length + store.numbers.usingApiKey(k.data.id).length > 0);
    if (bound.length) {
      throw new ApiError('resource_in_use', [{ detail: `The user's API key ${bound[0]?.data.id} is used by switches or numbers.` }]);
    }
    for (const k of keys) store.apiKeys.remove(k);
    store.users.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
