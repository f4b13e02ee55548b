import { describe, expect, it } from 'vitest';
import { envelope, useServer } from './helpers.js';

describe('control API', () => {
  const server = useServer();

  it('health answers ok', async () => {
    const res = await server().call('GET', '/__sim/health', { key: null });
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('accounts lists both fixture accounts with their keys', async () => {
    const res = await server().call('GET', '/__sim/accounts', { key: null });
    expect(res.body.accounts.map((a: any) => [a.id, a.name])).toEqual([
      ['0a0a0a0a-0000-4000-8000-000000000001', 'Demo'], ['0a0a0a0a-0000-4000-8000-000000000002', 'Partner'],
    ]);
    const demo = res.body.accounts[0];
    expect(demo.keys.map((k: any) => [k.key, k.kind, k.role])).toEqual([
      ['demo-admin-key', 'impersonated', 'admin'], ['demo-operator-key', 'impersonated', 'operator'],
      ['demo-readonly-key', 'impersonated', 'read_only'], ['demo-standard-key', 'standard', null],
    ]);
  });

  it('reset returns to the fixtures', async () => {
    await server().call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'temporary' }) });
    await server().call('DELETE', '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000304');
    expect((await server().call('GET', '/api/v1/api_keys')).body.count).toBe(4);
    const res = await server().call('POST', '/__sim/reset', { key: null });
    expect(res.status).toBe(200);
    const after = await server().call('GET', '/api/v1/api_keys');
    expect(after.body.results.map((r: any) => r.data.key)).toEqual(['demo-admin-key', 'demo-operator-key', 'demo-readonly-key', 'demo-standard-key']);
  });
});
