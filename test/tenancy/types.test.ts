/**
 * A handler's unit of work is its account's view: it cannot name another account's rows. `npm run
 * typecheck` checks this file, and each `@ts-expect-error` below fails the typecheck if the line under
 * it compiles (an account named by hand, a read across accounts, a row given another account). The
 * test itself runs the well-typed lines in a unit of the Demo account, where the partner's cart and
 * its requests are not found, through its id or through an index.
 */
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handling/handler.js';
import { DEMO_ACCOUNT, PARTNER_ACCOUNT } from '../../src/store/fixtures.js';
import { envelope, useServer } from '../support/helpers.js';

const cartData = { id: '', name: 'n', notes: null, inserted_at: '', updated_at: '' };

/** A handler that tries to read and write another account's rows: none of it compiles. */
export const trespassing: Handler<'getCart'> = async ({ store, params }) => {
  // @ts-expect-error: a handler's collections take no account: the view's is the only one
  await store.carts.get(PARTNER_ACCOUNT, params.id);
  // @ts-expect-error: no read across accounts on the account's view
  await store.carts.getAnyAccount(params.id);
  // @ts-expect-error: no list of another account's rows
  await store.carts.list(PARTNER_ACCOUNT);
  // @ts-expect-error: a row is the view's account's: it is not given one by hand
  await store.carts.insert({ account_id: PARTNER_ACCOUNT, data: { ...cartData, id: params.id } });
  // @ts-expect-error: the backend's rows under the account's collection are not the handler's
  await store.carts.t.get(params.id);
  // @ts-expect-error: a handler's view makes no view of another account
  store.view(PARTNER_ACCOUNT);
  // @ts-expect-error: the whole state is not the handler's to export
  await store.exportState();
  throw new Error('never run');
};

describe("a handler's unit of work is its account's view", () => {
  const server = useServer();

  it("another account's cart and its requests are not found, by id or by index", async () => {
    const partner = { key: 'partner-admin-key' };
    const cart = (await server().call('POST', '/api/v1/carts', { ...partner, body: envelope('cart', { name: 'p' }) }))
      .body.data.id as string;
    const request = { name: 'remove', type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550105'] } };
    const added = await server().call('POST', `/api/v1/carts/${cart}/requests`, {
      ...partner,
      body: envelope('request', request),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    const seen = (account: string) =>
      server().runtime.runner.work(
        account,
        async (work) => ({
          cart: (await work.carts.get(cart))?.data.id,
          requests: (await work.requests.ofCart(cart)).length,
        }),
        { read: true },
      );
    expect(await seen(PARTNER_ACCOUNT)).toEqual({ cart, requests: 1 });
    expect(await seen(DEMO_ACCOUNT)).toEqual({ cart: undefined, requests: 0 });
  });
});
