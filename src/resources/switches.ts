/**
 * Switches (spec: Resources > Switch; interface.md section 6 for the inferred get, list, update,
 * delete and the `api_key_id` binding), and the MMS encryption key attached to one.
 */
import { applySwitchFields, switchDefaults, switchViolations, type Switch } from '../domain/switches.js';
import type { Principal } from '../http/auth.js';
import { assertFound, assertNoViolations, inUse, invalidField, invalidParameter, notFound } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { SwitchRow } from '../store/rows.js';
import type { Store } from '../store/store.js';

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
function boundApiKey(store: Store, principal: Principal, id: string | null | undefined, current: string | null): string | null {
  if (id === undefined) return current;
  if (id === null) return null;
  if (!store.apiKeys.get(principal.accountId, id)) throw invalidField('/data/api_key_id', `No API key ${id} in this account.`);
  return id;
}

function findSwitch(store: Store, principal: Principal, id: string): SwitchRow {
  return assertFound(store.switches.get(principal.accountId, id), 'switch', id);
}

export const switchHandlers = {
  createSwitch: async ({ deps, principal, body }) => {
    const { store, clock, ids } = deps;
    const { api_key_id, ...fields } = body.data;
    const now = clock.iso();
    const data: Switch = { id: ids.uuid(), name: fields.name, inserted_at: now, updated_at: now, ...switchDefaults() };
    const secrets = { sms_secret: null, mms_secret: null, voice_secret: null };
    applySwitchFields(data, secrets, fields);
    const apiKey = boundApiKey(store, principal, api_key_id, null);
    assertNoViolations(switchViolations(data, secrets, apiKey !== null));
    const row = store.switches.insert({
      account_id: principal.accountId, data, secrets, api_key_id: apiKey,
      mms_encryption_key_id: null, mms_signing_key_id: null, sms_encryption_key_id: null, sms_signing_key_id: null,
    });
    await store.commit();
    // secrets are shown once, in the answer to creation
    return { status: 201, body: { ...present(row), data: { ...row.data, ...row.secrets } } };
  },

  listSwitches: (ctx) =>
    pageOf(ctx, ctx.deps.store.switches.list(ctx.principal.accountId), present),

  getSwitch: ({ deps, principal, params }) => ({ status: 200, body: present(findSwitch(deps.store, principal, params.id)) }),

  updateSwitch: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = findSwitch(store, principal, params.id);
    const { api_key_id, ...fields } = body.data;
    const data = structuredClone(row.data);
    const secrets = { ...row.secrets };
    applySwitchFields(data, secrets, fields);
    const apiKey = boundApiKey(store, principal, api_key_id, row.api_key_id);
    assertNoViolations(switchViolations(data, secrets, apiKey !== null));
    Object.assign(row, { data: { ...data, updated_at: clock.iso() }, secrets, api_key_id: apiKey });
    store.switches.touch(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  deleteSwitch: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = findSwitch(store, principal, params.id);
    const numbers = store.numbers.usingSwitch(row.data.id).length;
    if (numbers) throw inUse(`The switch routes ${numbers} number(s); bind them elsewhere first.`);
    store.switches.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  attachMmsEncryptionKey: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = findSwitch(store, principal, params.switch_id);
    const key = assertFound(store.secretKeys.get(principal.accountId, params.id), 'secret_key', params.id);
    if (key.data.usage !== 'ENCRYPTION') throw invalidParameter('id', `The secret key's usage is ${key.data.usage}; an MMS encryption key needs ENCRYPTION.`);
    if (!key.active) throw invalidParameter('id', 'The secret key is not active.');
    row.mms_encryption_key_id = key.data.id;
    if (body.data.mms_encryption_method !== undefined) row.data.mms_encryption_method = body.data.mms_encryption_method;
    row.data.updated_at = clock.iso();
    store.switches.touch(row);
    await store.commit();
    return { status: 200, body: { data: key.data, type: 'secret_key' } };
  },

  detachMmsEncryptionKey: async ({ deps, principal, params }) => {
    const { store, clock } = deps;
    const row = findSwitch(store, principal, params.switch_id);
    const key = row.mms_encryption_key_id ? store.secretKeys.get(principal.accountId, row.mms_encryption_key_id) : undefined;
    if (!key) throw notFound('secret_key', `mms_encryption_key of switch ${row.data.id}`);
    row.mms_encryption_key_id = null;
    row.data.updated_at = clock.iso();
    store.switches.touch(row);
    await store.commit();
    return { status: 200, body: { data: key.data, type: 'secret_key' } };
  },
} satisfies HandlerMap;
