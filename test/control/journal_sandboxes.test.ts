import { describe, expect, it } from 'vitest';
import { DEMO, envelope, useServer } from '../support/helpers.js';

describe('request journal', () => {
  const server = useServer();

  it('records every API call with its operation, account, status, latency and bodies, secrets redacted', async () => {
    const created = (
      await server().call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'journaled' }) })
    ).body.data;
    await server().call('POST', '/api/v1/users', {
      body: envelope('user', {
        email: 'j@demo-telecom.example',
        password: 'hunter2hunter2',
        password_confirmation: 'hunter2hunter2',
      }),
    });
    await server().call('POST', '/api/v1/secret_keys', {
      body: envelope('secret_key', { name: 'material', size: 32, usage: 'SIGNING' }),
    });
    await server().call('GET', '/api/v1/nope');
    const all = (await server().call('GET', '/__sim/requests', { key: null })).body;
    expect(all.count).toBe(4);
    // newest first
    const requests = [...all.requests].reverse();
    const first = requests[0];
    expect(first).toMatchObject({
      method: 'POST',
      path: '/api/v1/api_keys',
      operation_id: 'createApiKey',
      account_id: DEMO,
      status: 201,
    });
    expect(first.latency_ms).toBeGreaterThanOrEqual(0);
    // the scheme stays (it says how the caller authenticated); the credential goes
    expect(first.request.headers.authorization).toBe('Bearer [redacted]');
    const text = JSON.stringify(all);
    for (const secret of [created.secret, created.smpp_secert, created.key, 'hunter2hunter2', 'demo-admin-key'])
      expect(text).not.toContain(secret);
    expect(requests[2].response.body.data.data).toBe('[redacted]');
    expect(requests[3]).toMatchObject({ status: 404, operation_id: null });
  });

  it('keeps long bodies cut, so the journal stays bounded', async () => {
    await server().call('POST', '/api/v1/api_keys', {
      body: envelope('api_key', { name: 'long notes', notes: 'n'.repeat(15_000) }),
    });
    await server().call('POST', '/api/v1/switches', {
      body: envelope('switch', { name: 'c', sms_secret: 'cut-but-secret', notes: 'x'.repeat(65_535) }),
    });
    const [second, first] = (await server().call('GET', '/__sim/requests', { key: null })).body.requests;
    expect(first.request.body.data.notes).toHaveLength(15_000);
    expect(typeof second.request.body).toBe('string');
    expect(second.request.body).toContain('(cut at 16 KB)');
    expect(second.request.body).not.toContain('cut-but-secret');
    expect(second.request.body).toContain('"sms_secret":"[redacted]"');
  });

  it('filters by path, method, status, operationId and time', async () => {
    await server().call('GET', '/api/v1/carts');
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', {}) });
    const q = async (query: string) =>
      (await server().call('GET', `/__sim/requests?${query}`, { key: null })).body.count;
    expect(await q('path=/api/v1/carts')).toBe(2);
    expect(await q('method=post')).toBe(1);
    expect(await q('status=422')).toBe(1);
    expect(await q('operation_id=listCarts')).toBe(1);
    expect(await q('since=2026-03-01T12:00:00.000Z')).toBe(2);
    expect(await q('until=2026-02-01T00:00:00.000Z')).toBe(0);
    // a path is a template of the contract (every path it routes) or a literal path, as a verify names it
    await server().call('GET', '/api/v1/carts/nope');
    expect(await q(`path=${encodeURIComponent('/api/v1/carts/{id}')}`)).toBe(1);
    expect(await q('path=/api/v1/carts/nope')).toBe(1);
  });

  it('refuses a filter no call could match, naming the nearest (a typo is not "never called")', async () => {
    const refused = async (query: string) => {
      const res = await server().call('GET', `/__sim/requests?${query}`, { key: null });
      expect(res.status).toBe(422);
      return res.body.errors[0];
    };
    expect(await refused('operation_id=listNumbrs')).toMatchObject({
      source: { parameter: 'operation_id' },
      detail: expect.stringContaining('`listNumbers`'),
    });
    expect((await refused('path=/api/v1/numbrs')).detail).toContain('/api/v1/numbers');
    expect((await refused('method=FETCH')).source).toEqual({ parameter: 'method' });
    expect((await refused('api=sim&operation_id=listCarts')).detail).toContain('/__sim');
    expect((await refused('account_id=no-such-account')).source).toEqual({ parameter: 'account_id' });
  });
});

describe('sandboxes', () => {
  const server = useServer();
  const sandbox = async (name?: string) =>
    (await server().call('POST', '/__sim/accounts', { key: null, body: name ? { name } : {} })).body;

  it('a sandbox is a fresh account with keys, ten numbers and its own clock', async () => {
    const box = await sandbox('suite A');
    expect(box).toMatchObject({
      id: expect.any(String),
      name: 'suite A',
      keys: { admin: expect.any(String), readonly: expect.any(String), standard: expect.any(String) },
    });
    expect(box.numbers).toHaveLength(10);
    const numbers = await server().call('GET', '/api/v1/numbers', { key: box.keys.admin });
    expect(numbers.body.results.map((r: any) => r.data.number).sort()).toEqual([...box.numbers].sort());
    expect((await server().call('GET', '/api/v1/api_keys', { key: box.keys.admin })).body.count).toBe(3);
    expect(
      (await server().call('POST', '/api/v1/carts', { key: box.keys.readonly, body: envelope('cart', { name: 'x' }) }))
        .status,
    ).toBe(403);
    expect((await server().call('GET', '/api/v1/carts', { key: box.keys.standard })).status).toBe(403);
  });

  it('two sandboxes never see each other and advance their clocks independently', async () => {
    const a = await sandbox();
    const b = await sandbox();
    await server().call('POST', '/api/v1/carts', { key: a.keys.admin, body: envelope('cart', { name: 'only in A' }) });
    expect((await server().call('GET', '/api/v1/carts', { key: b.keys.admin })).body.count).toBe(0);
    expect((await server().call('GET', `/api/v1/numbers/${a.numbers[0]}`, { key: b.keys.admin })).status).toBe(404);
    await server().call('POST', '/__sim/clock/advance', { key: a.keys.admin, body: { by: 'P1D' } });
    expect((await server().call('GET', '/__sim/clock', { key: a.keys.admin })).body.now).toBe(
      '2026-03-02T12:00:00.000Z',
    );
    expect((await server().call('GET', '/__sim/clock', { key: b.keys.admin })).body.now).toBe(
      '2026-03-01T12:00:00.000Z',
    );
  });

  it('deleting a sandbox removes the account and everything in it', async () => {
    const box = await sandbox();
    await server().call('POST', '/api/v1/carts', { key: box.keys.admin, body: envelope('cart', { name: 'gone' }) });
    expect((await server().call('DELETE', `/__sim/accounts/${box.id}`, { key: null })).status).toBe(200);
    expect((await server().call('GET', '/api/v1/carts', { key: box.keys.admin })).status).toBe(403);
    expect(await server().read((w) => w.view(box.id).carts.list())).toHaveLength(0);
    expect((await server().call('DELETE', `/__sim/accounts/${box.id}`, { key: null })).status).toBe(404);
  });

  // the PostgreSQL store removed document files but not result files, the embedded one neither until reopen
  it('deleting a sandbox removes its document files and bulk dip result files', async () => {
    const box = await sandbox();
    const before = await server().files.count();
    const key = box.keys.admin;
    const cart = await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'c' }) });
    const request = await server().call('POST', `/api/v1/carts/${cart.body.data.id}/requests`, {
      key,
      body: envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: [box.numbers[0]] } }),
    });
    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array([37, 80, 68, 70])], { type: 'application/pdf' }), 'loa.pdf');
    upload.append('name', 'LOA');
    const document = await server().call(
      'POST',
      `/api/v1/carts/${cart.body.data.id}/requests/${request.body.data.id}/documents`,
      { key, form: upload },
    );
    expect(document.status).toBe(201);
    const task = await server().call('POST', '/api/v1/bulk_dip_tasks', {
      key,
      body: envelope('bulk_dip_task', { type: 'LRN', numbers: ['+13125550100'], reference_id: 'gone' }),
    });
    expect(task.status).toBe(201);
    await server().call('POST', '/__sim/clock/advance', { key, body: { by: 'PT1M' } });
    expect(await server().files.get(`result-${task.body.data.id}`)).toBeDefined();
    expect(await server().files.count()).toBe(before + 2);
    expect((await server().call('DELETE', `/__sim/accounts/${box.id}`, { key: null })).status).toBe(200);
    expect(await server().files.count()).toBe(before);
    expect(await server().files.get(document.body.data.id)).toBeUndefined();
  });
});

describe('snapshots', () => {
  const server = useServer();

  it('restore gives back identical list responses', async () => {
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'before' }) });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    const lists = async () =>
      Promise.all(
        ['/api/v1/carts', '/api/v1/api_keys', '/api/v1/numbers?first=100', '/__sim/clock'].map(
          async (p) => (await server().call('GET', p, { key: p.startsWith('/__sim') ? null : undefined })).body,
        ),
      );
    const before = await lists();
    expect((await server().call('POST', '/__sim/snapshots', { key: null, body: { name: 'baseline' } })).status).toBe(
      201,
    );
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'after' }) });
    await server().call('DELETE', '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000304');
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P1D' } });
    expect(await lists()).not.toEqual(before);
    expect((await server().call('POST', '/__sim/snapshots/baseline/restore', { key: null })).status).toBe(200);
    expect(await lists()).toEqual(before);
    expect((await server().call('POST', '/__sim/snapshots/missing/restore', { key: null })).status).toBe(404);
  });
});
