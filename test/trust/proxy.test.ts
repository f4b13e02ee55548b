import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { startProxy, type Violation } from '../../src/trust/proxy.js';
import { startTestServer, type TestServer } from '../support/helpers.js';

describe('validating proxy', () => {
  let upstream: TestServer;
  let proxy: { violations: Violation[]; close(): Promise<void>; server: import('node:http').Server };
  let base: string;
  beforeEach(async () => {
    upstream = await startTestServer();
    proxy = await startProxy({
      upstream: upstream.base,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      now: () => '2026-03-01T12:00:00.000Z',
    });
    base = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('forwards to the upstream and reports nothing when both sides keep the contract', async () => {
    const res = await fetch(`${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`, {
      headers: { authorization: 'Bearer demo-admin-key' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.key).toBe('demo-admin-key');
    expect(proxy.violations, JSON.stringify(proxy.violations)).toEqual([]);
  });

  it('query and path values are checked as the server reads them (coerced): no violation for a valid call', async () => {
    for (const path of [
      '/api/v1/numbers?first=1',
      '/api/v1/numbers?last=2',
      '/api/v1/bulk_dip_tasks?first=1',
      '/api/v1/numbers/+13125550100',
    ]) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: 'Bearer demo-admin-key' } });
      expect(res.status, path).toBe(200);
    }
    expect(proxy.violations, JSON.stringify(proxy.violations)).toEqual([]);
    // a value that is not one of the type still is one
    await fetch(`${base}/api/v1/numbers?first=abc`, { headers: { authorization: 'Bearer demo-admin-key' } });
    expect(proxy.violations.map((v) => v.pointer)).toContain('/query/first');
  });

  it('reports a response field the contract does not allow, with its JSON pointer', async () => {
    const record = (await upstream.call('GET', '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301')).body;
    await upstream.call('POST', '/__sim/faults', {
      key: null,
      body: {
        match: { operation_id: 'getApiKey' },
        effect: { status: 200, body: { ...record, debug_trace: 'x' } },
      },
    });
    const res = await fetch(`${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`, {
      headers: { authorization: 'Bearer demo-admin-key' },
    });
    expect(res.status).toBe(200);
    expect(proxy.violations).toEqual([
      expect.objectContaining({
        side: 'response',
        method: 'GET',
        path: '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301',
        pointer: '/body',
        message: expect.stringContaining("found 'debug_trace'"),
      }),
    ]);
    const listed = await fetch(`${base}/__proxy/violations`).then((r) => r.json());
    expect(listed.count).toBe(proxy.violations.length);
  });

  it('reports a request the contract does not allow', async () => {
    await fetch(`${base}/api/v1/api_keys`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'api_key', data: { name: 'x' } }),
    });
    expect(proxy.violations.some((v) => v.side === 'request' && v.pointer.includes('name'))).toBe(true);
  });
});
