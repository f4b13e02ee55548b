/** DID destinations (spec: Resources > DID destination; the list is inferred, interface.md section 6). */
import { destinationViolations, type Destination } from '../domain/destinations.js';
import { assertFound, assertNoViolations, invalidField } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { pageOf } from '../handling/pagination.js';
import type { DestinationRow, Draft } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';
import { findNumber } from './numbers.js';

const present = (row: DestinationRow) => ({
  data: row.data,
  type: 'number_destination' as const,
  associations: {
    did: { id: row.number_id },
    tts_message_set: row.data.tts_message_set_id ? { id: row.data.tts_message_set_id } : null,
  },
});

type Fields = Partial<Omit<Destination, 'id' | 'inserted_at' | 'updated_at'>>;

/** Lays the request's fields over a destination; the secret goes to the hidden part. */
function apply(data: Draft<Destination>, fields: Fields): string | null | undefined {
  const { auth_secret, ...rest } = fields;
  Object.assign(data, rest);
  // spec: TTS_MESSAGE_SET "set to UNUSED whatever is sent"
  if (data.type === 'TTS_MESSAGE_SET') data.destination = 'UNUSED';
  return auth_secret;
}

/** The destination of the number named in the path; another number's is not found. */
async function findDestination(store: AccountView, numberId: string, id: string): Promise<DestinationRow> {
  const number = await findNumber(store, numberId);
  const row = await store.destinations.get(id);
  return assertFound(row?.number_id === number.data.id ? row : undefined, 'number_destination', id);
}

export const destinationHandlers = {
  createDestination: async ({ store, clock, ids, params, body }) => {
    const number = await findNumber(store, params.number_id);
    if (body.data.destination === undefined && body.data.type !== 'TTS_MESSAGE_SET') {
      throw invalidField('/data/destination', 'destination is required.');
    }
    const now = clock.iso();
    const data: Draft<Destination> = {
      id: ids.uuid(),
      activated: true,
      type: body.data.type,
      destination: '',
      tts_message_set_id: null,
      auth_method: 'NONE',
      auth_identity: null,
      priority: 5,
      wait_time: 30,
      inserted_at: now,
      updated_at: now,
    };
    const secret = apply(data, body.data) ?? null;
    assertNoViolations(destinationViolations(data));
    const row = await store.destinations.insert({
      number_id: number.data.id,
      auth_secret: secret,
      data,
    });
    return { status: 201, body: { ...present(row), data: { ...row.data, auth_secret: secret } } };
  },

  listDestinations: async ({ store, principal, params, query, meta }) => {
    const number = await findNumber(store, params.number_id);
    return pageOf({ query, meta, principal }, await store.destinations.ofNumber(number.data.id), present, {
      scope: number.data.id,
    });
  },

  getDestination: async ({ store, params }) => ({
    status: 200,
    body: present(await findDestination(store, params.number_id, params.id)),
  }),

  updateDestination: async ({ store, clock, params, body }) => {
    const found = await findDestination(store, params.number_id, params.id);
    const updated = await store.destinations.update(found, (d) => {
      const sent = apply(d.data, body.data);
      if (sent !== undefined) d.auth_secret = sent;
      assertNoViolations(destinationViolations(d.data));
      d.data.updated_at = clock.iso();
    });
    return { status: 200, body: present(updated) };
  },

  deleteDestination: async ({ store, params }) => {
    const found = await findDestination(store, params.number_id, params.id);
    await store.destinations.remove(found);
    return { status: 200, body: present(found) };
  },
} satisfies HandlerMap;
