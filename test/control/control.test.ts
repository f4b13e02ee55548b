import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('control API', () => {
  const server = useServer();

  it('health answers ok', async () => {
    const res = await server().call('GET', '/__sim/health', { key: null });
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('accounts lists both fixture accounts with their keys', async () => {
    const res = await server().call('GET', '/__sim/accounts', { key: null });
    expect(res.body.accounts.map((a: any) => [a.id, a.name])).toEqual([
      ['0a0a0a0a-0000-4000-8000-000000000001', 'Demo'],
      ['0a0a0a0a-0000-4000-8000-000000000002', 'Partner'],
    ]);
    const demo = res.body.accounts[0];
    expect(demo.keys.map((k: any) => [k.key, k.kind, k.role])).toEqual([
      ['demo-admin-key', 'impersonated', 'admin'],
      ['demo-operator-key', 'impersonated', 'operator'],
      ['demo-readonly-key', 'impersonated', 'read_only'],
      ['demo-standard-key', 'standard', null],
    ]);
  });

  it('reset returns to the fixtures', async () => {
    await server().call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'temporary' }) });
    await server().call('DELETE', '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000304');
    expect((await server().call('GET', '/api/v1/api_keys')).body.count).toBe(4);
    const res = await server().call('POST', '/__sim/reset', { key: null });
    expect(res.status).toBe(200);
    const after = await server().call('GET', '/api/v1/api_keys');
    expect(after.body.results.map((r: any) => r.data.key)).toEqual([
      'demo-admin-key',
      'demo-operator-key',
      'demo-readonly-key',
      'demo-standard-key',
    ]);
  });

  it('goes through the pipeline: its invalid input is a declared 422 with a pointer or a parameter', async () => {
    const sandbox = await server().call('POST', '/__sim/accounts', { key: null, body: { name: '' } });
    expect(sandbox.status).toBe(422);
    expect(onlyError(sandbox)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/name' } });
    const snapshot = await server().call('POST', '/__sim/snapshots', {
      key: null,
      body: { name: 'no spaces allowed' },
    });
    expect(snapshot.status).toBe(422);
    const kind = await server().call('GET', '/__sim/deliveries?kind=AAA', { key: null });
    expect(kind.status).toBe(422);
    expect(onlyError(kind)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'kind' } });
    expect((await server().call('GET', '/__sim/scenarios', { key: null })).body.scenarios).toContain('cart-to-order');
  });

  it('snapshots saved and restored while many writes wait for the whole state: every call is answered', async () => {
    expect((await server().call('POST', '/__sim/snapshots', { key: null, body: { name: 'before' } })).status).toBe(201);
    for (let round = 0; round < 3; round++) {
      const whole = [
        server().call('POST', '/__sim/snapshots/before/restore', { key: null }),
        server().call('POST', '/__sim/snapshots', { key: null, body: { name: 'during' } }),
      ];
      // more writes than a PostgreSQL instance has connections, each waiting for the whole-state work
      const writes = Array.from({ length: 30 }, (_, i) =>
        server().call('POST', '/api/v1/carts', {
          key: i % 2 ? 'demo-admin-key' : 'partner-admin-key',
          body: envelope('cart', { name: `during ${round} ${i}` }),
        }),
      );
      const answers = await Promise.all([...whole, ...writes]);
      expect(
        answers.map((a) => [a.status, a.status >= 500 ? a.body : undefined]),
        `round ${round}`,
      ).toEqual([200, 201, ...writes.map(() => 201)].map((s) => [s, undefined]));
    }
  });

  it('a method a path does not have answers 405 with Allow, on both APIs', async () => {
    const v1 = await server().call('PUT', '/api/v1/carts');
    expect(v1.status).toBe(405);
    expect(v1.headers.get('allow')).toBe('GET, POST');
    expect(onlyError(v1).code).toBe('method_not_allowed');
    const sim = await server().call('DELETE', '/__sim/clock', { key: null });
    expect(sim.status).toBe(405);
    expect(sim.headers.get('allow')).toBe('GET');
  });

  it('every call is journaled, control calls and refused bodies too', async () => {
    await server().call('POST', '/api/v1/carts', {
      body: envelope('cart', { name: 'x'.repeat(10), notes: 'n'.repeat(1_100_000) }),
    });
    await server().call('GET', '/__sim/clock', { key: null });
    const v1 = (await server().call('GET', '/__sim/requests', { key: null })).body;
    expect(v1.requests.map((r: any) => [r.method, r.path, r.status])).toEqual([['POST', '/api/v1/carts', 413]]);
    const sim = (await server().call('GET', '/__sim/requests?api=sim', { key: null })).body;
    expect(sim.requests.map((r: any) => [r.path, r.operation_id])).toEqual([
      ['/__sim/requests', 'simRequests'],
      ['/__sim/clock', 'simClock'],
    ]);
  });

  it('the journal pages newest first, with a cursor', async () => {
    for (let i = 0; i < 5; i++) await server().call('GET', `/api/v1/carts?first=${i + 1}`);
    const first = (await server().call('GET', '/__sim/requests?limit=2', { key: null })).body;
    expect(first.count).toBe(5);
    expect(first.requests.map((r: any) => r.id)).toEqual([5, 4]);
    const second = (await server().call('GET', `/__sim/requests?limit=2&cursor=${first.next_cursor}`, { key: null }))
      .body;
    expect(second.requests.map((r: any) => r.id)).toEqual([3, 2]);
    const last = (await server().call('GET', `/__sim/requests?limit=2&cursor=${second.next_cursor}`, { key: null }))
      .body;
    expect(last.requests.map((r: any) => r.id)).toEqual([1]);
    expect(last.next_cursor).toBeNull();
    expect((await server().call('GET', '/__sim/requests?cursor=garbage', { key: null })).status).toBe(422);
  });
});
