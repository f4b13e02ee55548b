/**
 * Switches (spec: Resources > Switch; interface.md section 6 for the inferred get, list, update,
 * delete and the `api_key_id` binding), and the MMS encryption key attached to one.
 */
import { applySwitchFields, switchDefaults, switchViolations, type Switch } from '../domain/switches.js';
import { assertNoViolations, inUse, invalidField, invalidParameter, notFound } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { Draft, SwitchRow, SwitchSecrets } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';

const ref = (id: string | null) => (id ? { id } : null);

const present = (row: SwitchRow) => ({
  data: row.data,
  type: 'switch' as const,
  associations: {
    api_key: ref(row.api_key_id),
    mms_encryption_key: ref(row.mms_encryption_key_id),
    mms_signing_key: ref(row.mms_signing_key_id),
    sms_encryption_key: ref(row.sms_encryption_key_id),
    sms_signing_key: ref(row.sms_signing_key_id),
  },
});

/** The API key a request binds, which must be the account's own. */
async function boundApiKey(
  store: AccountView,
  id: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  if (id === undefined) return current;
  if (id === null) return null;
  if (!(await store.apiKeys.get(id))) throw invalidField('/data/api_key_id', `No API key ${id} in this account.`);
  return id;
}

async function findSwitch(store: AccountView, id: string): Promise<SwitchRow> {
  return await store.switches.found(id, 'switch');
}

export const switchHandlers = {
  createSwitch: async ({ store, clock, ids, body }) => {
    const { api_key_id, ...fields } = body.data;
    const now = clock.iso();
    const data: Draft<Switch> = {
      id: ids.uuid(),
      name: fields.name,
      inserted_at: now,
      updated_at: now,
      ...switchDefaults(),
    };
    const secrets: Draft<SwitchSecrets> = { sms_secret: null, mms_secret: null, voice_secret: null };
    applySwitchFields(data, secrets, fields);
    const apiKey = await boundApiKey(store, api_key_id, null);
    assertNoViolations(switchViolations(data));
    const row = await store.switches.insert({
      data,
      secrets,
      api_key_id: apiKey,
      mms_encryption_key_id: null,
      mms_signing_key_id: null,
      sms_encryption_key_id: null,
      sms_signing_key_id: null,
    });
    // secrets are shown once, in the answer to creation
    return { status: 201, body: { ...present(row), data: { ...row.data, ...row.secrets } } };
  },

  listSwitches: async (ctx) => storePageOf(ctx, (w) => ctx.store.switches.page(w), present),

  getSwitch: async ({ store, params }) => ({
    status: 200,
    body: present(await findSwitch(store, params.id)),
  }),

  updateSwitch: async ({ store, clock, params, body }) => {
    const row = await findSwitch(store, params.id);
    const { api_key_id, ...fields } = body.data;
    const apiKey = await boundApiKey(store, api_key_id, row.api_key_id);
    const updated = await store.switches.update(row, (d) => {
      applySwitchFields(d.data, d.secrets, fields);
      // checked as a whole, as it would be stored; a violation leaves the switch as it was
      assertNoViolations(switchViolations(d.data));
      d.data.updated_at = clock.iso();
      d.api_key_id = apiKey;
    });
    return { status: 200, body: present(updated) };
  },

  deleteSwitch: async ({ store, params }) => {
    const row = await findSwitch(store, params.id);
    const numbers = (await store.numbers.usingSwitch(row.data.id)).length;
    if (numbers) throw inUse(`The switch routes ${numbers} number(s); bind them elsewhere first.`);
    await store.switches.remove(row);
    return { status: 200, body: present(row) };
  },

  attachMmsEncryptionKey: async ({ store, clock, params, body }) => {
    const row = await findSwitch(store, params.switch_id);
    const key = await store.secretKeys.found(params.id, 'secret_key');
    if (key.data.usage !== 'ENCRYPTION')
      throw invalidParameter(
        'id',
        `The secret key's usage is ${key.data.usage}; an MMS encryption key needs ENCRYPTION.`,
      );
    if (!key.active) throw invalidParameter('id', 'The secret key is not active.');
    await store.switches.update(row, (d) => {
      d.mms_encryption_key_id = key.data.id;
      if (body.data.mms_encryption_method !== undefined) d.data.mms_encryption_method = body.data.mms_encryption_method;
      d.data.updated_at = clock.iso();
    });
    return { status: 200, body: { data: key.data, type: 'secret_key' } };
  },

  detachMmsEncryptionKey: async ({ store, clock, params }) => {
    const row = await findSwitch(store, params.switch_id);
    const key = row.mms_encryption_key_id ? await store.secretKeys.get(row.mms_encryption_key_id) : undefined;
    if (!key) throw notFound('secret_key', `mms_encryption_key of switch ${row.data.id}`);
    await store.switches.update(row, (d) => {
      d.mms_encryption_key_id = null;
      d.data.updated_at = clock.iso();
    });
    return { status: 200, body: { data: key.data, type: 'secret_key' } };
  },
} satisfies HandlerMap;
