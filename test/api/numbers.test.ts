import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('numbers', () => {
  const server = useServer();

  it("lists only the account's own numbers", async () => {
    const demo = await server().call('GET', '/api/v1/numbers?first=100');
    expect(demo.body.count).toBe(10);
    expect(demo.body.results.every((r: any) => r.data.number.startsWith('+131255501'))).toBe(true);
    const partner = await server().call('GET', '/api/v1/numbers', { key: 'partner-admin-key' });
    expect(partner.body.count).toBe(5);
  });

  it('a number is found by id, or by the number with or without the plus', async () => {
    const byPlus = await server().call('GET', '/api/v1/numbers/+13125550103');
    expect(byPlus.status).toBe(200);
    expect(byPlus.body.data.number).toBe('+13125550103');
    expect(byPlus.body.associations).toEqual({ switch: null, api_key: null, auto_response: null, campaign: null });
    const byDigits = await server().call('GET', '/api/v1/numbers/13125550103');
    const byId = await server().call('GET', `/api/v1/numbers/${byPlus.body.data.id}`);
    expect(byDigits.body).toEqual(byPlus.body);
    expect(byId.body).toEqual(byPlus.body);
  });

  it("another account's number answers 404 however it is named", async () => {
    for (const id of [
      '+13125550200',
      '13125550200',
      '0a0a0a0a-0000-4000-8000-000000000500',
      '+19999999999',
      'garbage',
    ]) {
      const res = await server().call('GET', `/api/v1/numbers/${id}`);
      expect(res.status, id).toBe(404);
      expect(onlyError(res).code).toBe('not_found');
    }
  });

  it('PATCH binds and unbinds a switch, an API key and an auto response', async () => {
    const sw = (await server().call('POST', '/api/v1/switches', { body: envelope('switch', { name: 'pbx' }) })).body
      .data;
    const ar = (
      await server().call('POST', '/api/v1/auto_responses', {
        body: envelope('messaging_auto_response', { name: 'hours', keywords: [] }),
      })
    ).body.data;
    const key = '0a0a0a0a-0000-4000-8000-000000000304';
    const res = await server().call('PATCH', '/api/v1/numbers/+13125550101', {
      body: envelope('did', { switch_id: sw.id, api_key_id: key, auto_response_id: ar.id }),
    });
    expect(res.status).toBe(200);
    expect(res.body.associations).toMatchObject({
      switch: { id: sw.id },
      api_key: { id: key },
      auto_response: { id: ar.id },
    });
    const unbound = await server().call('PATCH', '/api/v1/numbers/+13125550101', {
      body: envelope('did', { auto_response_id: null }),
    });
    expect(unbound.body.associations).toMatchObject({ switch: { id: sw.id }, auto_response: null });
  });

  it("binding something that is not the account's is invalid_parameter (404) at its pointer", async () => {
    for (const field of ['switch_id', 'api_key_id', 'auto_response_id']) {
      const res = await server().call('PATCH', '/api/v1/numbers/+13125550101', {
        body: envelope('did', { [field]: '0a0a0a0a-0000-4000-8000-000000000305' }),
      });
      expect(res.status, field).toBe(404);
      expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { pointer: `/data/${field}` } });
    }
    const bad = await server().call('PATCH', '/api/v1/numbers/+13125550101', {
      body: envelope('did', { switch_id: 'nope' }),
    });
    expect(onlyError(bad).source.pointer).toBe('/data/switch_id');
  });
});
