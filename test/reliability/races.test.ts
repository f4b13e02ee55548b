import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';
import { DEMO_ACCOUNT } from '../../src/store/fixtures.js';

describe('races', () => {
  const server = useServer();

  it('100 parallel creates of one cart name give exactly one 201', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'contested' }) }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(99);
    expect((await server().call('GET', '/api/v1/carts')).body.count).toBe(1);
  });

  it('50 parallel checkouts of one cart give one order', async () => {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'checkout race' }) }))
      .body.data;
    await server().call('POST', `/api/v1/carts/${cart.id}/requests`, {
      body: envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } }),
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => server().call('POST', `/api/v1/carts/${cart.id}/checkout`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422 && a.body.errors[0].code === 'cart_checked_out')).toHaveLength(49);
    expect((await server().call('GET', '/api/v1/orders')).body.count).toBe(1);
  });

  it('parallel deletes of a secret key and attaches of it never leave a switch pointing at a deleted key', async () => {
    for (let round = 0; round < 10; round++) {
      const key = (
        await server().call('POST', '/api/v1/secret_keys', {
          body: envelope('secret_key', { name: `race ${round}`, size: 16, usage: 'ENCRYPTION' }),
        })
      ).body.data;
      const switches = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: `sw ${round}.${i}` }) }),
        ),
      );
      const calls = [
        ...switches.map((s) =>
          server().call('PUT', `/api/v1/switches/${s.body.data.id}/mms_encryption_key/${key.id}`, {
            body: envelope('switch', {}),
          }),
        ),
        server().call('DELETE', `/api/v1/secret_keys/${key.id}`),
      ];
      if (round % 2) calls.reverse();
      await Promise.all(calls);
      const keyExists = (await server().call('GET', `/api/v1/secret_keys/${key.id}`)).status === 200;
      const pointing = await server().read((w) => w.view(DEMO_ACCOUNT).switches.usingSecretKey(key.id));
      expect(keyExists || pointing.length === 0, `round ${round}`).toBe(true);
    }
  });
});

describe('races between the awaits of a handler (50 runs each)', () => {
  const server = useServer();
  const RUNS = 50;
  const pdf = () => new Blob([new Uint8Array(2048).fill(7)], { type: 'application/pdf' });
  const upload = (path: string, name: string) => {
    const form = new FormData();
    form.append('file', pdf(), 'loa.pdf');
    form.append('name', name);
    return server().call('POST', path, { form });
  };

  /** A cart with one request, which has a document. */
  async function cartWithDocument(run: number) {
    const cart = (await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: `race ${run}` }) }))
      .body.data;
    const request = (
      await server().call('POST', `/api/v1/carts/${cart.id}/requests`, {
        body: envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } }),
      })
    ).body.data;
    const docs = `/api/v1/carts/${cart.id}/requests/${request.id}/documents`;
    expect((await upload(docs, 'LOA')).status).toBe(201);
    return { cart: cart.id as string, request: request.id as string, docs };
  }

  it('a purge and a checkout of one cart: exactly one wins, and a checked-out order keeps its request and documents', async () => {
    for (let run = 0; run < RUNS; run++) {
      const { cart, request } = await cartWithDocument(run);
      const [purge, checkout] = await Promise.all([
        server().call('DELETE', `/api/v1/carts/${cart}?purge=true`),
        server().call('POST', `/api/v1/carts/${cart}/checkout`),
      ]);
      expect(
        [purge.status, checkout.status].filter((s) => s === 200),
        `run ${run}`,
      ).toHaveLength(1);
      if (checkout.status === 200) {
        expect(onlyError(purge).code).toBe('cart_checked_out');
        expect((await server().call('GET', `/api/v1/requests/${request}`)).status, `run ${run}`).toBe(200);
        expect((await server().call('GET', `/api/v1/orders/${cart}`)).status, `run ${run}`).toBe(200);
        expect((await server().call('GET', `/api/v1/requests/${request}/documents`)).body.count, `run ${run}`).toBe(1);
      } else {
        expect(checkout.status, `run ${run}`).toBe(404);
        expect((await server().call('GET', `/api/v1/requests/${request}`)).status).toBe(404);
      }
    }
    const state = await server().state();
    expect(await server().files.count()).toBe(state.documents.length);
  });

  it('deleting a request and checking out its cart: the order has the request exactly when the delete lost', async () => {
    for (let run = 0; run < RUNS; run++) {
      const { cart, request } = await cartWithDocument(run);
      const [remove, checkout] = await Promise.all([
        server().call('DELETE', `/api/v1/carts/${cart}/requests/${request}`),
        server().call('POST', `/api/v1/carts/${cart}/checkout`),
      ]);
      expect(checkout.status, `run ${run}`).toBe(200);
      const submitted = await server().call('GET', `/api/v1/requests/${request}`);
      if (remove.status === 200) expect(submitted.status, `run ${run}`).toBe(404);
      else {
        expect(onlyError(remove).code).toBe('cart_checked_out');
        expect(submitted.status, `run ${run}`).toBe(200);
      }
    }
  });

  it('parallel uploads of one name to one request: exactly one 201', async () => {
    for (let run = 0; run < RUNS; run++) {
      const { docs } = await cartWithDocument(run);
      const answers = await Promise.all(Array.from({ length: 20 }, () => upload(docs, 'same name')));
      expect(
        answers.filter((a) => a.status === 201),
        `run ${run}`,
      ).toHaveLength(1);
      expect(answers.filter((a) => a.status === 422)).toHaveLength(19);
    }
  });

  it('100 parallel uploads of one name: exactly one 201, no orphan file', async () => {
    const { docs } = await cartWithDocument(0);
    const answers = await Promise.all(Array.from({ length: 100 }, () => upload(docs, 'contested')));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(await server().files.count()).toBe((await server().state()).documents.length);
  });

  it('uploads racing the deletion of their request leave no orphan file', async () => {
    for (let run = 0; run < RUNS; run++) {
      const { cart, request, docs } = await cartWithDocument(run);
      await Promise.all([
        ...Array.from({ length: 3 }, (_, i) => upload(docs, `late ${i}`)),
        server().call('DELETE', `/api/v1/carts/${cart}/requests/${request}`),
      ]);
    }
    expect(await server().files.count()).toBe((await server().state()).documents.length);
  });
});
