import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('pagination', () => {
  const server = useServer();

  async function makeKeys(n: number): Promise<string[]> {
    const names: string[] = [];
    for (let i = 0; i < n; i++) {
      const name = `key ${String(i).padStart(3, '0')}`;
      await server().call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name }) });
      await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1S' } });
      names.push(name);
    }
    return names;
  }

  it('default page is 25, oldest first, count is the whole list', async () => {
    await makeKeys(30);
    const res = await server().call('GET', '/api/v1/api_keys');
    expect(res.body.count).toBe(34);
    expect(res.body.results).toHaveLength(25);
    expect(res.body.results[0].data.key).toBe('demo-admin-key');
    expect(res.body.page_info).toMatchObject({ has_next_page: true, has_previous_page: false });
  });

  it('first+after pages forward and last+before backward through every record once', async () => {
    const names = await makeKeys(12);
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await server().call('GET', `/api/v1/api_keys?first=5${after ? `&after=${after}` : ''}`);
      all.push(...res.body.results.map((r: any) => r.data.name));
      if (!res.body.page_info.has_next_page) break;
      after = res.body.page_info.last;
    }
    expect(all.slice(4)).toEqual(names);
    const back: string[] = [];
    let before: string | undefined;
    for (;;) {
      const res = await server().call('GET', `/api/v1/api_keys?last=5${before ? `&before=${before}` : ''}`);
      back.unshift(...res.body.results.map((r: any) => r.data.name));
      if (!res.body.page_info.has_previous_page) break;
      before = res.body.page_info.first;
    }
    expect(back).toEqual(all);
  });

  it('an empty page has null cursors', async () => {
    const res = await server().call('GET', '/api/v1/secret_keys');
    expect(res.body).toEqual({
      count: 0,
      page_info: { first: null, has_next_page: false, has_previous_page: false, last: null },
      results: [],
    });
  });

  it('first and last must be 1..100 integers', async () => {
    for (const q of ['first=0', 'first=101', 'last=0', 'first=abc', 'first=2.5']) {
      const res = await server().call('GET', `/api/v1/api_keys?${q}`);
      expect(res.status, q).toBe(404);
      expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { parameter: q.split('=')[0] } });
    }
    expect((await server().call('GET', '/api/v1/users?first=101')).status).toBe(422);
    expect((await server().call('GET', '/api/v1/api_keys?first=100')).status).toBe(200);
  });

  it('a garbage cursor, or one from another list, is invalid_parameter', async () => {
    const garbage = await server().call('GET', '/api/v1/api_keys?after=bm9wZQ');
    expect(onlyError(garbage)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'after' } });
    const users = await server().call('GET', '/api/v1/users');
    const foreign = await server().call('GET', `/api/v1/api_keys?after=${users.body.page_info.first}`);
    expect(onlyError(foreign).source.parameter).toBe('after');
    const demo = await server().call('GET', '/api/v1/api_keys');
    const otherAccount = await server().call('GET', `/api/v1/api_keys?before=${demo.body.page_info.last}`, {
      key: 'partner-admin-key',
    });
    expect(onlyError(otherAccount).source.parameter).toBe('before');
  });

  it('a cursor whose parts hold a NUL pages from where its key would be', async () => {
    await makeKeys(3);
    const page = await server().call('GET', '/api/v1/api_keys?first=5');
    const [list, time, id] = JSON.parse(Buffer.from(page.body.page_info.first, 'base64url').toString());
    const nul = Buffer.from(JSON.stringify([list, time, `${id}\u0000`])).toString('base64url');
    const next = await server().call('GET', `/api/v1/api_keys?first=2&after=${nul}`);
    expect(next.status).toBe(200);
    expect(next.body.results.map((r: any) => r.data.id)).toEqual(
      page.body.results.slice(1, 3).map((r: any) => r.data.id),
    );
  });

  it('a cursor stays valid after its record is deleted', async () => {
    await makeKeys(3);
    const page = await server().call('GET', '/api/v1/api_keys?first=5');
    const lastId = page.body.results[4].data.id;
    await server().call('DELETE', `/api/v1/api_keys/${lastId}`);
    const next = await server().call('GET', `/api/v1/api_keys?first=5&after=${page.body.page_info.last}`);
    expect(next.status).toBe(200);
    expect(next.body.results.map((r: any) => r.data.name)).toEqual(['key 001', 'key 002']);
  });
});

describe('pagination, newest first', () => {
  it('pages forward and back through a newest-first list with its cursors', async () => {
    const { paginate } = await import('../../src/handling/pagination.js');
    const rows = Array.from({ length: 7 }, (_, i) => ({
      data: { id: `id${i}`, inserted_at: `2026-01-0${i + 1}T00:00:00.000Z` },
    })).reverse();
    const ids = (p: { results: { data: { id: string } }[] }) => p.results.map((r) => r.data.id);
    const opts = { list: 'osr', newestFirst: true, unsorted: true };
    const p1 = paginate(rows, { first: 3 }, opts);
    expect(ids(p1)).toEqual(['id6', 'id5', 'id4']);
    const p2 = paginate(rows, { first: 3, after: p1.page_info.last! }, opts);
    expect(ids(p2)).toEqual(['id3', 'id2', 'id1']);
    const back = paginate(rows, { last: 2, before: p2.page_info.first! }, opts);
    expect(ids(back)).toEqual(['id5', 'id4']);
    expect(back.page_info).toMatchObject({ has_previous_page: true, has_next_page: true });
  });
});
