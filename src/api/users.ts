/**
 * Users (spec: Resources > User; Endpoints > Users). A new user gets its creator's role; a password
 * is kept only as a scrypt hash and never returned.
 */
import { hashPassword } from '../domain/secrets.js';
import { DomainError, invalidField } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { UserRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';

const present = (row: UserRow) => ({ data: row.data, type: 'user' as const });

async function assertEmailFree(store: AccountView, email: string, self?: string): Promise<void> {
  const taken = await store.users.byEmail(email);
  if (taken && taken.data.id !== self)
    throw invalidField('/data/email', 'A user with this email exists in the account.');
}

export const userHandlers = {
  createUser: async ({ store, clock, ids, random, principal, body }) => {
    const { password, password_confirmation, address, email, first_name, last_name, title } = body.data;
    await assertEmailFree(store, email);
    if (password !== undefined && password_confirmation !== password) {
      throw invalidField('/data/password_confirmation', 'password_confirmation does not match password.');
    }
    if (password === undefined && password_confirmation !== undefined) {
      throw invalidField('/data/password', 'password is required with password_confirmation.');
    }
    const creator = principal.user;
    if (!creator)
      throw new DomainError('access_denied.no_scope', [
        {
          detail: "Only a user's key may create users.",
          params: { action: 'create', level: 'account', resource: 'user' },
        },
      ]);
    const now = clock.iso();
    const row = await store.users.insert({
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
    return { status: 201, body: present(row) };
  },

  listUsers: async (ctx) => storePageOf(ctx, (w) => ctx.store.users.page(w), present),

  getUser: async ({ store, params }) => ({
    status: 200,
    body: present(await store.users.found(params.id, 'user')),
  }),

  updateUser: async ({ store, clock, params, body }) => {
    const row = await store.users.found(params.id, 'user');
    if (body.data.email !== undefined) await assertEmailFree(store, body.data.email, row.data.id);
    const updated = await store.users.update(row, (d) => Object.assign(d.data, body.data, { updated_at: clock.iso() }));
    return { status: 200, body: present(updated) };
  },

  deleteUser: async ({ store, principal, params }) => {
    const row = await store.users.found(params.id, 'user');
    if (principal.user?.data.id === row.data.id) throw invalidField('/', 'A user cannot delete itself.');
    const keys = await store.apiKeys.ofUser(row.data.id);
    for (const k of keys) {
      if (
        (await store.switches.usingApiKey(k.data.id)).length + (await store.numbers.usingApiKey(k.data.id)).length >
        0
      ) {
        throw new DomainError('resource_in_use', [
          { detail: `The user's API key ${k.data.id} is used by switches or numbers.` },
        ]);
      }
    }
    for (const k of keys) await store.apiKeys.remove(k);
    await store.users.remove(row);
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
