/**
 * Secret keys (spec: Resources > Secret key). The key material, `size` random bytes, is shown once
 * in the create response as base64 and kept only as a hash.
 */
import { hashSecret } from '../domain/secrets.js';
import { assertFound, inUse, invalidField } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { SecretKeyRow } from '../store/rows.js';

const present = (row: SecretKeyRow) => ({ data: row.data, type: 'secret_key' as const });

export const secretKeyHandlers = {
  createSecretKey: async ({ deps, principal, body }) => {
    const { store, clock, ids, random } = deps;
    const { name, notes, size, usage } = body.data;
    if (usage === 'NONE') throw invalidField('/data/usage', 'usage NONE is reserved for internal use; use SIGNING or ENCRYPTION.');
    const material = random.bytes(size).toString('base64');
    const now = clock.iso();
    const row = store.secretKeys.insert({
      account_id: principal.accountId,
      active: true,
      material_hash: hashSecret(material),
      data: { id: ids.uuid(), inserted_at: now, updated_at: now, name, notes: notes ?? null, size, usage },
    });
    await store.commit();
    return { status: 201, body: { data: { ...row.data, data: material }, type: 'secret_key' } };
  },

  listSecretKeys: (ctx) =>
    pageOf(ctx, ctx.deps.store.secretKeys.list(ctx.principal.accountId), present),

  getSecretKey: ({ deps, principal, params }) => ({
    status: 200,
    body: present(assertFound(deps.store.secretKeys.get(principal.accountId, params.id), 'secret_key', params.id)),
  }),

  updateSecretKey: async ({ deps, principal, params, body }) => {
    const row = assertFound(deps.store.secretKeys.get(principal.accountId, params.id), 'secret_key', params.id);
    const { active, ...fields } = body.data;
    if (active !== undefined) row.active = active;
    Object.assign(row.data, fields, { updated_at: deps.clock.iso() });
    deps.store.secretKeys.touch(row);
    await deps.store.commit();
    return { status: 200, body: present(row) };
  },

  deleteSecretKey: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = assertFound(store.secretKeys.get(principal.accountId, params.id), 'secret_key', params.id);
    const users = store.switches.usingSecretKey(row.data.id).length;
    if (users > 0) throw inUse(`The secret key is used by ${users} switch(es); detach it first.`);
    store.secretKeys.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
