/**
 * Carts, checkout and orders (spec: Resources > Cart, Order; Endpoints > Carts and orders; States
 * and transitions). A checked-out cart is an order with the same id: it is no longer a cart, and
 * writes to it answer 422 `cart_checked_out`.
 */
import type { Principal } from '../http/auth.js';
import { ApiError, assertFound, inUse, invalidField, notFound } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import { startOrder } from '../sim/orders.js';
import type { CartRow, OrderRow } from '../store/rows.js';
import type { Store } from '../store/store.js';

const present = (row: CartRow) => ({ data: row.data, type: 'cart' as const });
export const presentOrder = (row: OrderRow) => ({ data: row.data, type: 'order' as const });

/** The cart a write is aimed at; a checked-out one answers 422 `cart_checked_out`. */
export function writableCart(store: Store, principal: Principal, id: string): CartRow {
  const cart = store.carts.get(principal.accountId, id);
  if (cart) return cart;
  if (store.orders.get(principal.accountId, id)) {
    throw new ApiError('cart_checked_out', [{ detail: `Cart ${id} is checked out; it and its requests can no longer change.` }]);
  }
  throw notFound('cart', id);
}

export const findCart = (store: Store, principal: Principal, id: string): CartRow => assertFound(store.carts.get(principal.accountId, id), 'cart', id);

function assertNameFree(store: Store, principal: Principal, name: string, self?: string): void {
  const other = store.carts.byName(principal.accountId, name);
  if (other && other.data.id !== self) throw invalidField('/data/name', `A cart named ${name} exists in the account.`);
}

/** Removes a cart request's documents, files included. */
export async function removeDocuments(store: Store, principal: Principal, requestId: string): Promise<void> {
  for (const doc of store.documents.ofRequest(principal.accountId, requestId)) {
    await store.files.remove(doc.data.id);
    store.documents.remove(doc);
  }
}

export const cartHandlers = {
  createCart: async ({ deps, principal, body }) => {
    const { store, clock, ids } = deps;
    assertNameFree(store, principal, body.data.name);
    const now = clock.iso();
    const row = store.carts.insert({
      account_id: principal.accountId,
      data: { id: ids.ulid(), name: body.data.name, notes: body.data.notes ?? null, inserted_at: now, updated_at: now },
    });
    await store.commit();
    return { status: 201, body: present(row) };
  },

  listCarts: (ctx) =>
    pageOf(ctx, ctx.deps.store.carts.list(ctx.principal.accountId), present),

  getCart: ({ deps, principal, params }) => ({ status: 200, body: present(findCart(deps.store, principal, params.id)) }),

  updateCart: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = writableCart(store, principal, params.id);
    const { name, ...fields } = body.data;
    if (name !== undefined) {
      assertNameFree(store, principal, name, row.data.id);
      store.carts.rename(row, name);
    }
    Object.assign(row.data, fields, { updated_at: clock.iso() });
    store.carts.touch(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  deleteCart: async ({ deps, principal, params, query }) => {
    const { store } = deps;
    const row = writableCart(store, principal, params.id);
    const requests = store.requests.ofCart(principal.accountId, row.data.id);
    if (requests.length && !query.purge) throw inUse(`The cart has ${requests.length} request(s); delete them, or pass purge=true.`);
    for (const r of requests) {
      await removeDocuments(store, principal, r.data.id);
      store.requests.remove(r);
    }
    store.carts.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  checkoutCart: async ({ deps, principal, params }) => {
    const { store, clock } = deps;
    const cart = writableCart(store, principal, params.cart_id);
    const now = clock.iso();
    const order = store.orders.insert({
      account_id: principal.accountId,
      data: { id: cart.data.id, name: cart.data.name, notes: cart.data.notes, status: 'NEW', error_code: 'OK', inserted_at: now, updated_at: now },
    });
    for (const r of store.requests.ofCart(principal.accountId, cart.data.id)) {
      r.order_id = order.data.id;
      Object.assign(r.data, { status: 'NEW', error_code: 'OK', updated_at: now });
      store.requests.touch(r);
    }
    store.carts.remove(cart);
    await startOrder(deps, order);
    await store.commit();
    return { status: 200, body: presentOrder(order) };
  },

  listOrders: (ctx) =>
    pageOf(ctx, ctx.deps.store.orders.list(ctx.principal.accountId), presentOrder),

  getOrder: ({ deps, principal, params }) => ({
    status: 200,
    body: presentOrder(assertFound(deps.store.orders.get(principal.accountId, params.id), 'order', params.id)),
  }),
} satisfies HandlerMap;
