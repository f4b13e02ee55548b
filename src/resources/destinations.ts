/** DID destinations (spec: Resources > DID destination; the list is inferred, interface.md section 6). */
import { destinationViolations, type Destination } from '../domain/destinations.js';
import { assertFound, assertNoViolations, invalidField } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { DestinationRow } from '../store/rows.js';
import { findNumber } from './numbers.js';

const present = (row: DestinationRow) => ({
  data: row.data,
  type: 'number_destination' as const,
  associations: { did: { id: row.number_id }, tts_message_set: row.data.tts_message_set_id ? { id: row.data.tts_message_set_id } : null },
});

type Fields = Partial<Omit<Destination, 'id' | 'inserted_at' | 'updated_at'>>;

/** Lays the request's fields over a destination; the secret goes to the hidden part. */
function apply(data: Destination, fields: Fields): string | null | undefined {
  const { auth_secret, ...rest } = fields;
  Object.assign(data, rest);
  // spec: TTS_MESSAGE_SET "set to UNUSED whatever is sent"
  if (data.type === 'TTS_MESSAGE_SET') data.destination = 'UNUSED';
  return auth_secret;
}

export const destinationHandlers = {
  createDestination: async ({ deps, principal, params, body }) => {
    const { store, clock, ids } = deps;
    const number = findNumber(store, principal, params.number_id);
    if (body.data.destination === undefined && body.data.type !== 'TTS_MESSAGE_SET') {
      throw invalidField('/data/destination', 'destination is required.');
    }
    const now = clock.iso();
    const data: Destination = {
      id: ids.uuid(), activated: true, type: body.data.type, destination: '', tts_message_set_id: null,
      auth_method: 'NONE', auth_identity: null, priority: 5, wait_time: 30, inserted_at: now, updated_at: now,
    };
    const secret = apply(data, body.data) ?? null;
    assertNoViolations(destinationViolations(data, secret));
    const row = store.destinations.insert({ account_id: principal.accountId, number_id: number.data.id, auth_secret: secret, data });
    await store.commit();
    return { status: 201, body: { ...present(row), data: { ...row.data, auth_secret: secret } } };
  },

  listDestinations: ({ deps, principal, params, query, meta }) => {
    const number = findNumber(deps.store, principal, params.number_id);
    return pageOf({ query, meta, principal },
      deps.store.destinations.ofNumber(principal.accountId, number.data.id), present, { scope: number.data.id });
  },

  updateDestination: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const number = findNumber(store, principal, params.number_id);
    const row = store.destinations.get(principal.accountId, params.id);
    const found = assertFound(row?.number_id === number.data.id ? row : undefined, 'number_destination', params.id);
    const data = structuredClone(found.data);
    const sent = apply(data, body.data);
    const secret = sent === undefined ? found.auth_secret : sent;
    assertNoViolations(destinationViolations(data, secret));
    Object.assign(found, { data: { ...data, updated_at: clock.iso() }, auth_secret: secret });
    store.destinations.touch(found);
    await store.commit();
    return { status: 200, body: present(found) };
  },

  deleteDestination: async ({ deps, principal, params }) => {
    const { store } = deps;
    const number = findNumber(store, principal, params.number_id);
    const row = store.destinations.get(principal.accountId, params.id);
    const found = assertFound(row?.number_id === number.data.id ? row : undefined, 'number_destination', params.id);
    store.destinations.remove(found);
    await store.commit();
    return { status: 200, body: present(found) };
  },
} satisfies HandlerMap;
