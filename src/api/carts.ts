/**
 * Carts, checkout and orders (spec: Resources > Cart, Order; Endpoints > Carts and orders; States
 * and transitions). A checked-out cart is an order with the same id: it is no longer a cart, and
 * writes to it answer 422 `cart_checked_out`.
 */
import { DomainError, inUse, invalidField, notFound } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import { startOrder } from '../simulation/orders.js';
import type { CartRow, OrderRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';

const present = (row: CartRow) => ({ data: row.data, type: 'cart' as const });
export const presentOrder = (row: OrderRow) => ({ data: row.data, type: 'order' as const });

/** The cart a write is aimed at; a checked-out one answers 422 `cart_checked_out`. */
export async function writableCart(store: AccountView, id: string): Promise<CartRow> {
  const cart = await store.carts.get(id);
  if (cart) return cart;
  if (await store.orders.get(id)) {
    throw new DomainError('cart_checked_out', [
      { detail: `Cart ${id} is checked out; it and its requests can no longer change.` },
    ]);
  }
  throw notFound('cart', id);
}

export const findCart = async (store: AccountView, id: string): Promise<CartRow> => await store.carts.found(id, 'cart');

/** A cart's name is unique in its account: the index refuses a taken one as the cart is written (`OnDuplicate`). */
const nameFree = (name: string) => ({
  name: () => invalidField('/data/name', `A cart named ${name} exists in the account.`),
});

/** Removes a request's documents; their files go once the removal is committed. */
export async function removeDocuments(store: AccountView, requestId: string): Promise<void> {
  for (const doc of await store.documents.ofRequest(requestId)) {
    await store.documents.remove(doc);
    store.files.remove(doc.data.id);
  }
}

export const cartHandlers = {
  createCart: async ({ store, clock, ids, body }) => {
    const now = clock.iso();
    const row = await store.carts.insert(
      {
        data: {
          id: ids.ulid(),
          name: body.data.name,
          notes: body.data.notes ?? null,
          inserted_at: now,
          updated_at: now,
        },
      },
      nameFree(body.data.name),
    );
    return { status: 201, body: present(row) };
  },

  listCarts: async (ctx) => storePageOf(ctx, (w) => ctx.store.carts.page(w), present),

  getCart: async ({ store, params }) => ({
    status: 200,
    body: present(await findCart(store, params.id)),
  }),

  updateCart: async ({ store, clock, params, body }) => {
    const row = await writableCart(store, params.id);
    const updated = await store.carts.update(
      row,
      (d) => Object.assign(d.data, body.data, { updated_at: clock.iso() }),
      body.data.name === undefined ? undefined : nameFree(body.data.name),
    );
    return { status: 200, body: present(updated) };
  },

  deleteCart: async ({ store, params, query }) => {
    const row = await writableCart(store, params.id);
    const requests = await store.requests.ofCart(row.data.id);
    if (requests.length && !query.purge)
      throw inUse(`The cart has ${requests.length} request(s); delete them, or pass purge=true.`);
    for (const r of requests) {
      await removeDocuments(store, r.data.id);
      await store.requests.remove(r);
    }
    await store.carts.remove(row);
    return { status: 200, body: present(row) };
  },

  checkoutCart: async (work) => {
    const { store, clock, params } = work;
    const cart = await writableCart(store, params.cart_id);
    const now = clock.iso();
    const order = await store.orders.insert({
      data: {
        id: cart.data.id,
        name: cart.data.name,
        notes: cart.data.notes,
        status: 'NEW',
        error_code: 'OK',
        inserted_at: now,
        updated_at: now,
      },
    });
    for (const r of await store.requests.ofCart(cart.data.id)) {
      await store.requests.update(r, (d) => {
        d.order_id = order.data.id;
        Object.assign(d.data, { status: 'NEW', error_code: 'OK', updated_at: now });
      });
    }
    await store.carts.remove(cart);
    await startOrder(work.store, order);
    return { status: 200, body: presentOrder(order) };
  },

  listOrders: async (ctx) => storePageOf(ctx, (w) => ctx.store.orders.page(w), presentOrder),

  getOrder: async ({ store, params }) => ({
    status: 200,
    body: presentOrder(await store.orders.found(params.id, 'order')),
  }),

  updateOrder: async ({ store, clock, outbox, params, body }) => {
    const row = await store.orders.found(params.id, 'order');
    const { name, notes } = body.data;
    const updated = await store.orders.update(row, (d) => {
      if (name !== undefined) d.data.name = name;
      if (notes !== undefined) d.data.notes = notes;
      d.data.updated_at = clock.iso();
    });
    await outbox.publish('ORDER', 'order.updated', { type: 'order', data: updated.data });
    return { status: 200, body: presentOrder(updated) };
  },
} satisfies HandlerMap;
