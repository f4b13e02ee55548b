/**
 * Secret keys (spec: Resources > Secret key). The key material, `size` random bytes, is shown once
 * in the create response as base64 and kept only as a hash.
 */
import { hashSecret } from '../domain/secrets.js';
import { inUse, invalidField } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { SecretKeyRow } from '../domain/rows.js';

const present = (row: SecretKeyRow) => ({ data: row.data, type: 'secret_key' as const });

export const secretKeyHandlers = {
  createSecretKey: async ({ store, clock, ids, random, body }) => {
    const { name, notes, size, usage } = body.data;
    if (usage === 'NONE')
      throw invalidField('/data/usage', 'usage NONE is reserved for internal use; use SIGNING or ENCRYPTION.');
    const material = random.bytes(size).toString('base64');
    const now = clock.iso();
    const row = await store.secretKeys.insert({
      active: true,
      material_hash: hashSecret(material),
      data: { id: ids.uuid(), inserted_at: now, updated_at: now, name, notes: notes ?? null, size, usage },
    });
    return { status: 201, body: { data: { ...row.data, data: material }, type: 'secret_key' } };
  },

  listSecretKeys: async (ctx) => storePageOf(ctx, (w) => ctx.store.secretKeys.page(w), present),

  getSecretKey: async ({ store, params }) => ({
    status: 200,
    body: present(await store.secretKeys.found(params.id, 'secret_key')),
  }),

  updateSecretKey: async ({ store, clock, params, body }) => {
    const row = await store.secretKeys.found(params.id, 'secret_key');
    const { active, ...fields } = body.data;
    const updated = await store.secretKeys.update(row, (d) => {
      if (active !== undefined) d.active = active;
      Object.assign(d.data, fields, { updated_at: clock.iso() });
    });
    return { status: 200, body: present(updated) };
  },

  deleteSecretKey: async ({ store, params }) => {
    const row = await store.secretKeys.found(params.id, 'secret_key');
    const users = (await store.switches.usingSecretKey(row.data.id)).length;
    if (users > 0) throw inUse(`The secret key is used by ${users} switch(es); detach it first.`);
    await store.secretKeys.remove(row);
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
