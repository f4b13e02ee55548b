import { describe, expect, it } from 'vitest';
import { Journal, type Recorded } from '../../src/harness/journal.js';
import { MemoryJournalLog } from '../../src/store/embedded/shared.js';
import { SERVER_CALLS_KEPT } from '../../src/store/shared.js';

/** A call of the simulated API with these bodies. */
const call = (requestBody: string, responseText: string): Recorded => ({
  api: 'openapi',
  at: '2026-03-01T12:00:00.000Z',
  wall_at: '2026-03-01T12:00:00.000Z',
  method: 'PATCH',
  path: '/api/v1/carts/x',
  operation_id: 'updateCart',
  account_id: 'a',
  status: 200,
  latency_ms: 1,
  headers: { authorization: 'Bearer secret-key', 'content-type': 'application/json' },
  requestBody,
  responseText,
});

describe('the journal', () => {
  it('keeps every long body whole across the slabs it is copied into', async () => {
    const journal = new Journal(new MemoryJournalLog(64 * 1024 * 1024));
    const notes = (i: number) => `${String(i).padStart(4, '0')}${'abcdefghij'.repeat(500)}`;
    // 300 calls of about 10 KB (request and answer): three slabs of a megabyte
    for (let i = 0; i < 300; i++)
      await journal.record(
        call(JSON.stringify({ data: { notes: notes(i) } }), JSON.stringify({ data: { notes: notes(i), n: i } })),
      );
    const page = await journal.page({}, 300);
    expect(page.count).toBe(300);
    page.requests.forEach((r, i) => {
      expect(r.request.body).toEqual({ data: { notes: notes(299 - i) } });
      expect(r.response.body).toEqual({ data: { notes: notes(299 - i), n: 299 - i } });
      expect(r.request.headers.authorization).toBe('Bearer [redacted]');
    });
  });

  it('drops its oldest calls first when over its bytes, and what it keeps stays whole', async () => {
    const journal = new Journal(new MemoryJournalLog(200_000));
    const body = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(5_000) });
    for (let i = 0; i < 100; i++) await journal.record(call(body(i), body(i)));
    const page = await journal.page({}, 100);
    expect(page.count).toBeLessThan(100);
    expect(page.count).toBeGreaterThan(10);
    page.requests.forEach((r, i) => expect(r.response.body).toMatchObject({ i: 99 - i }));
  });

  it('keeps the newest SERVER_CALLS_KEPT calls of no account, and every call of an account', async () => {
    const journal = new Journal(new MemoryJournalLog(64 * 1024 * 1024));
    const total = SERVER_CALLS_KEPT * 3;
    for (let i = 0; i < total; i++) {
      await journal.record({ ...call('{}', JSON.stringify({ i })), account_id: null, path: '/__sim/accounts' });
      if (i % 10 === 0) await journal.record(call('{}', JSON.stringify({ i })));
    }
    const server = await journal.page({ api: 'all', path: '/__sim/accounts' }, 1);
    expect(server.count).toBe(SERVER_CALLS_KEPT);
    expect(server.requests[0]?.response.body).toEqual({ i: total - 1 });
    expect((await journal.page({ account_id: 'a' }, 1)).count).toBe(total / 10);
    await journal.clear({ only: 'a' });
    await journal.record({ ...call('{}', '{"i": "after"}'), account_id: null, path: '/__sim/accounts' });
    expect((await journal.page({ api: 'all', path: '/__sim/accounts' }, 1)).count).toBe(SERVER_CALLS_KEPT);
  });
});
