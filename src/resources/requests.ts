/**
 * Cart requests and submitted requests (spec: Resources > Request; Endpoints > Cart requests;
 * interface.md section 6: the type-specific fields travel in the request's own `data`).
 */
import { dataSchemaOf, requestViolations, type AccountView, type RequestData } from '../domain/requests.js';
import type { Principal } from '../http/auth.js';
import { componentValidator } from '../http/contract.js';
import { assertFound, assertNoViolations, invalidField } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import { validationError } from '../http/validation.js';
import type { RequestRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { findCart, removeDocuments, writableCart } from './carts.js';

export const presentRequest = (row: RequestRow) => ({ data: row.data, type: 'request' as const });

function accountView(store: Store, principal: Principal): AccountView {
  const { accountId } = principal;
  return {
    ownsNumber: (n) => store.numbers.byNumber(accountId, n) !== undefined,
    hasSwitch: (id) => store.switches.get(accountId, id) !== undefined,
    hasCampaign: (tcr) => store.campaigns.find((c) => c.data.tcr_campaign_id === tcr && (c.account_id === accountId || c.shared_with.includes(accountId))) !== undefined,
  };
}

/** The request of the cart, which must still be a cart request. */
export function cartRequest(store: Store, principal: Principal, cartId: string, id: string): RequestRow {
  const row = store.requests.get(principal.accountId, id);
  return assertFound(row && row.cart_id === cartId && row.order_id === null ? row : undefined, 'request', id);
}

/** A submitted request (its cart checked out). */
export function submittedRequest(store: Store, principal: Principal, id: string): RequestRow {
  const row = store.requests.get(principal.accountId, id);
  return assertFound(row && row.order_id !== null ? row : undefined, 'request', id);
}

export const requestHandlers = {
  createCartRequest: async ({ deps, principal, params, body }) => {
    const { store, clock, ids } = deps;
    const cart = writableCart(store, principal, params.cart_id);
    const { name, notes, type, data } = body.data;
    assertNoViolations(requestViolations(type, data as Record<string, unknown>, accountView(store, principal)));
    const now = clock.iso();
    const row = store.requests.insert({
      account_id: principal.accountId,
      cart_id: cart.data.id,
      order_id: null,
      data: { id: ids.ulid(), name: name ?? null, notes: notes ?? null, type, data: data as RequestData, inserted_at: now, updated_at: now },
    });
    await store.commit();
    return { status: 201, body: presentRequest(row) };
  },

  listCartRequests: ({ deps, principal, params, query, meta }) => {
    const cart = findCart(deps.store, principal, params.cart_id);
    return pageOf({ query, meta, principal },
      deps.store.requests.ofCart(principal.accountId, cart.data.id), presentRequest, { scope: cart.data.id });
  },

  getCartRequest: ({ deps, principal, params }) => {
    findCart(deps.store, principal, params.cart_id);
    return { status: 200, body: presentRequest(cartRequest(deps.store, principal, params.cart_id, params.id)) };
  },

  updateCartRequest: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    writableCart(store, principal, params.cart_id);
    const row = cartRequest(store, principal, params.cart_id, params.id);
    const { name, notes, type, data } = body.data;
    if (type !== undefined && type !== row.data.type) throw invalidField('/data/type', `The type of a request cannot change (it is ${row.data.type}).`);
    if (data !== undefined) {
      const validate = componentValidator(dataSchemaOf[row.data.type]);
      if (!validate(data)) {
        throw validationError((validate.errors ?? []).map((e) => ({ ...e, instancePath: `/requestBody/data/data${e.instancePath}` })));
      }
      assertNoViolations(requestViolations(row.data.type, data, accountView(store, principal)));
      row.data.data = data as RequestData;
    }
    if (name !== undefined) row.data.name = name;
    if (notes !== undefined) row.data.notes = notes;
    row.data.updated_at = clock.iso();
    store.requests.touch(row);
    await store.commit();
    return { status: 200, body: presentRequest(row) };
  },

  deleteCartRequest: async ({ deps, principal, params }) => {
    const { store } = deps;
    writableCart(store, principal, params.cart_id);
    const row = cartRequest(store, principal, params.cart_id, params.id);
    await removeDocuments(store, principal, row.data.id);
    store.requests.remove(row);
    await store.commit();
    return { status: 200, body: presentRequest(row) };
  },

  getRequest: ({ deps, principal, params }) => ({ status: 200, body: presentRequest(submittedRequest(deps.store, principal, params.id)) }),
} satisfies HandlerMap;
