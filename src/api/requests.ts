/**
 * Cart requests and submitted requests (spec: Resources > Request; Endpoints > Cart requests;
 * interface.md section 6: the type-specific fields travel in the request's own `data`).
 */
import { DOCUMENT_EDITABLE } from '../domain/transitions.js';
import { dataSchemaOf } from '../domain/requests.js';
import { componentValidator } from '../contract.js';
import { assertFound, invalidField } from '../domain/errors.js';
import type { BodyOf, Ctx, HandlerMap } from '../handling/handler.js';
import { pageOf } from '../handling/pagination.js';
import { validationError } from '../handling/validation.js';
import type { RequestRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';
import { findCart, removeDocuments, writableCart } from './carts.js';

export const presentRequest = (row: RequestRow) => ({ data: row.data, type: 'request' as const });

/** The request of the cart, which must still be a cart request. */
export async function cartRequest(store: AccountView, cartId: string, id: string): Promise<RequestRow> {
  const row = await store.requests.get(id);
  return assertFound(row && row.cart_id === cartId && row.order_id === null ? row : undefined, 'request', id);
}

/** A submitted request (its cart checked out). */
export async function submittedRequest(store: AccountView, id: string): Promise<RequestRow> {
  const row = await store.requests.get(id);
  return assertFound(row && row.order_id !== null ? row : undefined, 'request', id);
}

/** The type-specific data of an update, checked against the schema of the request's own type. */
function assertDataOfType(row: RequestRow, data: unknown): void {
  const validate = componentValidator(dataSchemaOf[row.data.type]);
  if (!validate(data)) {
    throw validationError(
      (validate.errors ?? []).map((e) => ({ ...e, instancePath: `/requestBody/data/data${e.instancePath}` })),
    );
  }
}

/**
 * The request with an update's name, notes and data, its type unchanged. Before new data is taken,
 * `dataMayChange` throws when the request's data may not change now; then the data is checked
 * against the schema of the request's type.
 */
async function edited(
  { store, clock }: Pick<Ctx<'updateRequest'>, 'store' | 'clock'>,
  row: RequestRow,
  edit: BodyOf<'updateRequest' | 'updateCartRequest'>['data'],
  dataMayChange: () => void = () => undefined,
): Promise<RequestRow> {
  const { name, notes, type, data } = edit;
  if (type !== undefined && type !== row.data.type)
    throw invalidField('/data/type', `The type of a request cannot change (it is ${row.data.type}).`);
  if (data !== undefined) {
    dataMayChange();
    assertDataOfType(row, data);
  }
  return store.requests.update(row, (d) => {
    if (data !== undefined) d.data.data = structuredClone(data) as typeof d.data.data;
    if (name !== undefined) d.data.name = name;
    if (notes !== undefined) d.data.notes = notes;
    d.data.updated_at = clock.iso();
  });
}

export const requestHandlers = {
  createCartRequest: async ({ store, clock, ids, params, body }) => {
    const cart = await writableCart(store, params.cart_id);
    // the type and its data stay together: the union is tagged by `type`
    const { name, notes, ...tagged } = body.data;
    const now = clock.iso();
    const row = await store.requests.insert({
      cart_id: cart.data.id,
      order_id: null,
      data: { id: ids.ulid(), name: name ?? null, notes: notes ?? null, ...tagged, inserted_at: now, updated_at: now },
    });
    return { status: 201, body: presentRequest(row) };
  },

  listCartRequests: async ({ store, principal, params, query, meta }) => {
    const cart = await findCart(store, params.cart_id);
    return pageOf({ query, meta, principal }, await store.requests.ofCart(cart.data.id), presentRequest, {
      scope: cart.data.id,
    });
  },

  getCartRequest: async ({ store, params }) => {
    await findCart(store, params.cart_id);
    return { status: 200, body: presentRequest(await cartRequest(store, params.cart_id, params.id)) };
  },

  updateCartRequest: async ({ store, clock, params, body }) => {
    await writableCart(store, params.cart_id);
    const row = await cartRequest(store, params.cart_id, params.id);
    return { status: 200, body: presentRequest(await edited({ store, clock }, row, body.data)) };
  },

  deleteCartRequest: async ({ store, params }) => {
    await writableCart(store, params.cart_id);
    const row = await cartRequest(store, params.cart_id, params.id);
    await removeDocuments(store, row.data.id);
    await store.requests.remove(row);
    return { status: 200, body: presentRequest(row) };
  },

  getRequest: async ({ store, params }) => ({
    status: 200,
    body: presentRequest(await submittedRequest(store, params.id)),
  }),

  listRequests: async (ctx) =>
    pageOf(
      ctx,
      (await ctx.store.requests.list()).filter((r) => r.order_id !== null),
      presentRequest,
    ),

  updateRequest: async ({ store, clock, outbox, params, body }) => {
    const row = await submittedRequest(store, params.id);
    const updated = await edited({ store, clock }, row, body.data, () => {
      const status = row.data.status ?? 'NEW';
      if (!DOCUMENT_EDITABLE.includes(status)) {
        throw invalidField(
          '/data/data',
          `The request is ${status}; its data can change while ${DOCUMENT_EDITABLE.join(', ')}.`,
        );
      }
    });
    await outbox.publish('REQUEST', 'request.updated', { type: 'request', data: updated.data });
    return { status: 200, body: presentRequest(updated) };
  },
} satisfies HandlerMap;
