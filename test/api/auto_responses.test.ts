import { describe, expect, it } from 'vitest';
import { matchKeyword } from '../../src/domain/keywords.js';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('auto responses', () => {
  const server = useServer();
  const create = (data: unknown) =>
    server().call('POST', '/api/v1/auto_responses', { body: envelope('messaging_auto_response', data) });
  const update = (id: string, data: unknown) =>
    server().call('PATCH', `/api/v1/auto_responses/${id}`, { body: envelope('messaging_auto_response', data) });

  it('keywords are stored uppercase; intercept, message and message2 as sent', async () => {
    const res = await create({
      name: 'Store hours',
      notes: 'front desk',
      keywords: [
        { keyword: 'hours', message: 'Open 7am-7pm, Mon-Sat.', intercept: true },
        { keyword: 'Stop', message: 'You are unsubscribed.', message2: 'You were already unsubscribed.' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('messaging_auto_response');
    expect(res.body.data.keywords).toEqual([
      { keyword: 'HOURS', is_wildcard: false, intercept: true, message: 'Open 7am-7pm, Mon-Sat.', message2: null },
      {
        keyword: 'STOP',
        is_wildcard: false,
        intercept: false,
        message: 'You are unsubscribed.',
        message2: 'You were already unsubscribed.',
      },
    ]);
  });

  it("a wildcard's keyword becomes WILDCARD; at most one wildcard", async () => {
    const res = await create({
      name: 'catch-all',
      keywords: [{ is_wildcard: true, keyword: 'anything', message: 'Thanks, we will reply soon.' }],
    });
    expect(res.body.data.keywords[0]).toMatchObject({ keyword: 'WILDCARD', is_wildcard: true });
    const two = await create({
      name: 'two',
      keywords: [{ is_wildcard: true }, { keyword: 'HI' }, { is_wildcard: true }],
    });
    expect(two.status).toBe(404);
    expect(onlyError(two)).toMatchObject({
      code: 'invalid_parameter',
      source: { pointer: '/data/keywords/2/is_wildcard' },
    });
  });

  it('updating an existing wildcard needs keyword WILDCARD in the request', async () => {
    const { id } = (await create({ name: 'w', keywords: [{ is_wildcard: true, message: 'old' }] })).body.data;
    const refused = await update(id, { keywords: [{ is_wildcard: true, message: 'new' }] });
    expect(refused.status).toBe(404);
    expect(onlyError(refused).source.pointer).toBe('/data/keywords/0/keyword');
    const ok = await update(id, { keywords: [{ is_wildcard: true, keyword: 'wildcard', message: 'new' }] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.keywords[0]).toMatchObject({ keyword: 'WILDCARD', message: 'new' });
  });

  it('a keyword is required, unique, and WILDCARD is reserved', async () => {
    expect(onlyError(await create({ keywords: [{ message: 'no keyword' }] })).source.pointer).toBe(
      '/data/keywords/0/keyword',
    );
    expect(onlyError(await create({ keywords: [{ keyword: 'info' }, { keyword: 'INFO' }] })).source.pointer).toBe(
      '/data/keywords/1/keyword',
    );
    expect(onlyError(await create({ keywords: [{ keyword: 'wildcard' }] })).source.pointer).toBe(
      '/data/keywords/0/keyword',
    );
    expect(onlyError(await create({ keywords: [{ keyword: 'x', intercept: 'yes' }] })).source.pointer).toBe(
      '/data/keywords/0/intercept',
    );
  });

  it('matching is case-insensitive and falls back to the wildcard', async () => {
    const { keywords } = (
      await create({
        keywords: [
          { keyword: 'hours', message: 'h' },
          { is_wildcard: true, message: 'w' },
        ],
      })
    ).body.data;
    expect(matchKeyword(keywords, ' Hours ')?.message).toBe('h');
    expect(matchKeyword(keywords, 'what time?')?.message).toBe('w');
    expect(matchKeyword(keywords.slice(0, 1), 'what time?')).toBeUndefined();
  });

  it('get, list, update name and notes, delete', async () => {
    const { id } = (await create({ name: 'a', keywords: [] })).body.data;
    expect((await server().call('GET', `/api/v1/auto_responses/${id}`)).body.data.name).toBe('a');
    expect((await update(id, { name: 'b', notes: 'renamed' })).body.data).toMatchObject({
      name: 'b',
      notes: 'renamed',
    });
    expect((await server().call('GET', '/api/v1/auto_responses')).body.count).toBe(1);
    expect((await server().call('DELETE', `/api/v1/auto_responses/${id}`)).status).toBe(200);
    expect((await server().call('GET', `/api/v1/auto_responses/${id}`)).status).toBe(404);
  });

  it('an auto response bound to a number cannot be deleted (422)', async () => {
    const { id } = (await create({ name: 'bound', keywords: [] })).body.data;
    await server().call('PATCH', '/api/v1/numbers/+13125550102', {
      body: envelope('did', { auto_response_id: id }),
    });
    const res = await server().call('DELETE', `/api/v1/auto_responses/${id}`);
    expect(res.status).toBe(422);
    expect(onlyError(res).code).toBe('resource_in_use');
  });
});
