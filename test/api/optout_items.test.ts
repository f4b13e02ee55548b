import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('opt-out items', () => {
  const server = useServer();
  const create = (numberId: string, data: unknown) =>
    server().call('POST', `/api/v1/numbers/${numberId}/optout_items`, { body: envelope('number_optout_item', data) });

  it('an item is created on a number named by id or by the number itself', async () => {
    const res = await create('13125550104', { remote_number: '14155550123' });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('number_optout_item');
    expect(res.body.data).toMatchObject({ host_number: '+13125550104', remote_number: '+14155550123', keyword: null });
    expect(res.body.associations).toEqual({
      host_did: { id: '0a0a0a0a-0000-4000-8000-000000000404', number: '+13125550104' },
      sms: null,
    });
    const byId = await create('0a0a0a0a-0000-4000-8000-000000000404', {
      host_number: '+13125550104',
      remote_number: '+14155550124',
    });
    expect(byId.status).toBe(201);
  });

  it("remote_number must be a phone number; host_number must be the path's number", async () => {
    expect(onlyError(await create('+13125550104', { remote_number: 'call me' })).source.pointer).toBe(
      '/data/remote_number',
    );
    expect(onlyError(await create('+13125550104', {})).source.pointer).toBe('/data/remote_number');
    const other = await create('+13125550104', { host_number: '+13125550105', remote_number: '+14155550123' });
    expect(other.status).toBe(404);
    expect(onlyError(other).source.pointer).toBe('/data/host_number');
  });

  it('a duplicate host/remote pair is rejected', async () => {
    await create('+13125550104', { remote_number: '+14155550123' });
    const dup = await create('+13125550104', { remote_number: '14155550123' });
    expect(dup.status).toBe(404);
    expect(onlyError(dup)).toMatchObject({ code: 'invalid_parameter', source: { pointer: '/data/remote_number' } });
    expect((await create('+13125550105', { remote_number: '+14155550123' })).status).toBe(201);
  });

  it('keyword is set only by the system', async () => {
    const res = await create('+13125550104', { remote_number: '+14155550123', keyword: 'STOP' });
    expect(onlyError(res).source.pointer).toBe('/data/keyword');
  });

  it('lists per number and account-wide; get; delete', async () => {
    const a = (await create('+13125550104', { remote_number: '+14155550123' })).body.data;
    await create('+13125550105', { remote_number: '+14155550123' });
    expect((await server().call('GET', '/api/v1/numbers/+13125550104/optout_items')).body.count).toBe(1);
    expect((await server().call('GET', '/api/v1/optout_items')).body.count).toBe(2);
    expect((await server().call('GET', '/api/v1/optout_items', { key: 'partner-admin-key' })).body.count).toBe(0);
    expect((await server().call('GET', `/api/v1/optout_items/${a.id}`)).body.data.id).toBe(a.id);
    const del = await server().call('DELETE', `/api/v1/optout_items/${a.id}`);
    expect(del.status).toBe(200);
    expect((await server().call('GET', `/api/v1/optout_items/${a.id}`)).status).toBe(404);
  });

  it("another account's number cannot take an item", async () => {
    const res = await create('+13125550200', { remote_number: '+14155550123' });
    expect(res.status).toBe(404);
    expect(onlyError(res).code).toBe('not_found');
  });
});
