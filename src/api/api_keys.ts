/**
 * API keys (spec: Resources > API key; Endpoints > API keys). Keys created here are standard keys;
 * `secret` and `smpp_secert` are shown once, in the create response, and kept only as hashes.
 */
import { hashSecret, token } from '../domain/secrets.js';
import { inUse } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { ApiKeyRow } from '../domain/rows.js';

const present = (row: ApiKeyRow) => ({ data: row.data, type: 'api_key' as const });

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** `n` lowercase letters and digits, the alphabet SMPP and MM4 credentials can carry. */
const alnum = (bytes: Buffer): string => [...bytes].map((b) => ALNUM[b % ALNUM.length]).join('');

export const apiKeyHandlers = {
  createApiKey: async ({ store, clock, ids, random, body }) => {
    const now = clock.iso();
    const secret = token(random, 24);
    // SMPP v3.4 passwords are at most 9 octets, so the SMPP secret is 8 characters
    const smppSecret = alnum(random.bytes(8));
    const row = await store.apiKeys.insert({
      user_id: null,
      secret_hash: hashSecret(secret),
      smpp_secret_hash: hashSecret(smppSecret),
      data: {
        active: body.data.active ?? true,
        id: ids.uuid(),
        identity: `mm4_${alnum(random.bytes(12))}`,
        inserted_at: now,
        updated_at: now,
        key: token(random, 24),
        name: body.data.name,
        notes: body.data.notes ?? null,
        smpp_system_id: `s${alnum(random.bytes(11))}`,
      },
    });
    return { status: 201, body: { data: { ...row.data, secret, smpp_secert: smppSecret }, type: 'api_key' } };
  },

  listApiKeys: async (ctx) => storePageOf(ctx, (w) => ctx.store.apiKeys.page(w), present),

  getApiKey: async ({ store, params }) => ({
    status: 200,
    body: present(await store.apiKeys.found(params.id, 'api_key')),
  }),

  updateApiKey: async ({ store, clock, params, body }) => {
    const row = await store.apiKeys.found(params.id, 'api_key');
    const updated = await store.apiKeys.update(row, (d) =>
      Object.assign(d.data, body.data, { updated_at: clock.iso() }),
    );
    return { status: 200, body: present(updated) };
  },

  deleteApiKey: async ({ store, params }) => {
    const row = await store.apiKeys.found(params.id, 'api_key');
    const switches = (await store.switches.usingApiKey(row.data.id)).length;
    const numbers = (await store.numbers.usingApiKey(row.data.id)).length;
    if (switches + numbers > 0) {
      throw inUse(`The API key is used by ${switches} switch(es) and ${numbers} number(s); re-assign them first.`);
    }
    await store.apiKeys.remove(row);
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
