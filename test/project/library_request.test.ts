/**
 * `sim.request`: a call answered in the process by the same core as one over HTTP, no socket between.
 * Each answer is compared with the same call's over loopback, and each call is in the journal as any is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDipswitch, type Dipswitch } from 'dipswitch';

let sim: Dipswitch;
beforeAll(async () => {
  sim = await startDipswitch({ seed: 7 });
});
afterAll(() => sim.close());

const admin = () => ({ authorization: `Bearer ${sim.keys.admin}` });

describe('sim.request', () => {
  it('answers a GET as the server does over HTTP, and journals it', async () => {
    const [inProcess, overHttp] = await Promise.all([
      sim.request('/api/v1/numbers?page=1', { headers: admin() }),
      fetch(`${sim.url}/api/v1/numbers?page=1`, { headers: admin() }),
    ]);
    expect(inProcess.status).toBe(200);
    expect(inProcess.headers.get('content-type')).toBe(overHttp.headers.get('content-type'));
    expect(await inProcess.json()).toEqual(await overHttp.json());
    await sim.requests.verify({ match: { operation_id: 'listNumbers', status: 200 }, count: { exactly: 2 } });
  });

  it('writes with a JSON body, refuses what the contract refuses, and answers 404 and 405 with their envelopes', async () => {
    const made = await sim.request('/api/v1/carts', {
      method: 'POST',
      headers: { ...admin(), 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'cart', data: { name: 'in process' } }),
    });
    expect(made.status).toBe(201);
    const cart = (await made.json()) as { data: { id: string } };
    const read = await fetch(`${sim.url}/api/v1/carts/${cart.data.id}`, { headers: admin() });
    expect(((await read.json()) as { data: { name: string } }).data.name).toBe('in process');

    const refused = await sim.request('/api/v1/carts', {
      method: 'POST',
      headers: { ...admin(), 'content-type': 'application/json' },
      body: '{"type": "cart"',
    });
    expect(refused.status).toBe(422);
    const nothing = await sim.request('/api/v1/nowhere', { headers: admin() });
    expect(nothing.status).toBe(404);
    expect(((await nothing.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
    const big = JSON.stringify({ type: 'cart', data: { name: 'x'.repeat(2 * 1024 * 1024) } });
    const init = { method: 'POST', headers: { ...admin(), 'content-type': 'application/json' }, body: big };
    const [tooBig, tooBigOverHttp] = await Promise.all([
      sim.request('/api/v1/carts', init),
      fetch(`${sim.url}/api/v1/carts`, init),
    ]);
    expect([tooBig.status, await tooBig.json()]).toEqual([tooBigOverHttp.status, await tooBigOverHttp.json()]);
    expect(tooBig.status).toBe(413);
    const wrong = await sim.request('/api/v1/carts', { method: 'PUT', headers: admin() });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });

  it('a dropped call rejects, as fetch does, and is journaled; a malformed answer is its bytes', async () => {
    await sim.faults.add({ match: { operation_id: 'listCarts' }, effect: { drop: true }, times: 1 });
    await expect(sim.request('/api/v1/carts', { headers: admin() })).rejects.toThrow(/dropped/);
    await sim.faults.add({ match: { operation_id: 'listCarts' }, effect: { malformed: true }, times: 1 });
    const cut = await sim.request('/api/v1/carts', { headers: admin() });
    await expect(cut.json()).rejects.toThrow();
    await sim.requests.verify({ match: { operation_id: 'listCarts' }, count: { exactly: 2 } });
  });

  it("a live answer's body is its stream: the journal's next call arrives on it", async () => {
    const live = await sim.request('/__sim/requests/stream');
    expect(live.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = live.body!.getReader();
    await sim.request('/api/v1/numbers', { headers: admin() });
    let seen = '';
    while (!seen.includes('listNumbers')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain('listNumbers');
    await reader.cancel();
  });
});
