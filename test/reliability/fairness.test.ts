/**
 * Fair admission per account (src/http/admission.ts, docs/hosted.md): a quiet account's call goes ahead of a busy
 * account's backlog, and a backlog past its bound is answered 503 backlog_full at once, with Retry-After, journaled.
 * Held by order, never by time: a busy account's calls are held in the works by a delay fault of its own.
 */
import { describe, expect, it } from 'vitest';
import { Admission } from '../../src/http/admission.js';
import { DomainError } from '../../src/domain/errors.js';
import { startTestServer } from '../support/helpers.js';
import { eventually } from '../support/eventually.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

describe('admission, by account', () => {
  it("lets a quiet account's call in ahead of a busy account's backlog, each account in turn", async () => {
    const admission = new Admission({ perAccount: 2, total: 2, backlog: 3 }, () => 0);
    const order: string[] = [];
    const held: (() => void)[] = [];
    const call = (account: string, n: number) =>
      admission.admit(account).then((release) => {
        order.push(`${account}${n}`);
        held.push(release);
      });
    const busy = [1, 2, 3, 4, 5].map((n) => call('busy', n));
    await Promise.all(busy.slice(0, 2));
    // the server's two slots are the busy account's; three more of its calls wait, a sixth is refused
    await expect(call('busy', 6)).rejects.toMatchObject({ code: 'backlog_full' } satisfies Partial<DomainError>);
    const quiet = call('quiet', 1);
    held.shift()?.();
    await quiet;
    // the first slot freed went to the quiet account, not to the busy account's next
    expect(order).toEqual(['busy1', 'busy2', 'quiet1']);
    // the rest, in the busy account's order, as calls end
    while (order.length < 6) {
      held.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(busy.slice(2));
    while (held.length) held.shift()?.();
    expect(order).toEqual(['busy1', 'busy2', 'quiet1', 'busy3', 'busy4', 'busy5']);
    expect(admission.depths().find((d) => d.account === 'busy')).toMatchObject({ waiting: 0, running: 0, refused: 1 });
  });
});

describe('admission, a turn of the event loop at a time', () => {
  it("lets one account's calls that answer at once in at most its bound a turn; another account's call runs at its arrival", async () => {
    const admission = new Admission({ perAccount: 2, total: 32, backlog: 10 }, () => 0);
    const seen: string[] = [];
    // a call read, let in and answered before the next is read, as a GET on the embedded store is
    const arrive = async (who: string) => {
      const release = await admission.admit(who.replace(/\d/, ''));
      seen.push(who);
      release();
    };
    // one turn: nothing here waits for the event loop
    await arrive('busy1');
    await arrive('busy2');
    const later = [arrive('busy3'), arrive('busy4'), arrive('busy5')];
    await arrive('quiet1');
    expect(seen).toEqual(['busy1', 'busy2', 'quiet1']);
    // the next turns: two of the busy account's a turn
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['busy1', 'busy2', 'quiet1', 'busy3', 'busy4']);
    await Promise.all(later);
    expect(seen).toEqual(['busy1', 'busy2', 'quiet1', 'busy3', 'busy4', 'busy5']);
  });
});

describe("a rate per account (an operator's, off by default)", () => {
  it('among accounts with as many calls in the works, lets in the one served longest ago', async () => {
    const admission = new Admission({ perAccount: 1, total: 1, backlog: 3 }, () => 0);
    const order: string[] = [];
    const held: (() => void)[] = [];
    const call = (who: string) =>
      admission.admit(who.replace(/\d/, '')).then((release) => {
        order.push(who);
        held.push(release);
      });
    await call('busy1');
    // the busy account waits first, the quiet one after it: both have nothing in the works when busy1 ends
    const rest = [call('busy2'), call('busy3'), call('quiet1')];
    while (order.length < 4) {
      held.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(rest);
    held.forEach((release) => release());
    expect(order).toEqual(['busy1', 'quiet1', 'busy2', 'busy3']);
  });

  it('lets an account make its rate of calls a second, refuses the next with rate_limited, and refills as time goes', async () => {
    let now = 0;
    const admission = new Admission({ perAccount: 8, total: 32, backlog: 10, rate: 3 }, () => now);
    for (let i = 0; i < 3; i++) (await admission.admit('a'))();
    await expect(admission.admit('a')).rejects.toMatchObject({ code: 'rate_limited' } satisfies Partial<DomainError>);
    // another account's calls are its own
    (await admission.admit('b'))();
    now += 400;
    (await admission.admit('a'))();
    await expect(admission.admit('a')).rejects.toMatchObject({ code: 'rate_limited' } satisfies Partial<DomainError>);
    now += 1000;
    for (let i = 0; i < 3; i++) (await admission.admit('a'))();
  });

  it('answers 429 with Retry-After on a server with --account-rate', async () => {
    const server = await startTestServer({ accountRate: 2 });
    try {
      const statuses: number[] = [];
      let retry: string | null = null;
      for (let i = 0; i < 4; i++) {
        const res = await server.call('GET', '/api/v1/carts');
        statuses.push(res.status);
        if (res.status === 429) retry = res.headers.get('retry-after');
      }
      // the bucket holds two; four calls in well under a second leave at least one refused
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(statuses).toContain(429);
      expect(retry).toBe('1');
    } finally {
      await server.close();
    }
  });
});

describe('a busy account on a server', () => {
  it("past its backlog: 503 backlog_full at once with Retry-After, journaled; another account's calls go on", async () => {
    const server = await startTestServer({ limits: { accountInFlight: 1, callsInFlight: 2, accountBacklog: 2 } });
    try {
      const made = await server.call('POST', '/__sim/accounts', { key: null, body: { name: 'busy' } });
      const busy = made.body.keys.admin as string;
      // each of the busy account's calls is held in the works 300 ms by a fault of its own
      await server.call('POST', '/__sim/faults', {
        key: busy,
        body: { match: { operation_id: 'listCarts' }, effect: { delay_ms: 300 } },
      });
      const calls = [1, 2, 3].map(() => server.call('GET', '/api/v1/carts', { key: busy }));
      // one in the works, two waiting: the fourth is refused at once, whatever the others are doing
      await eventually(async () => {
        const refused = await server.call('GET', '/api/v1/carts', { key: busy });
        if (refused.status !== 503) return false;
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(refused.body.errors[0]).toMatchObject({ code: 'backlog_full', title: 'Backlog full' });
        return true;
      }, 'the backlog to fill');
      // who waits, as the dashboard reads it: the busy account, its bounds; its own key sees itself alone
      const seen = (await server.call('GET', '/__sim/admission', { key: null })).body;
      expect(seen.limits).toEqual({ account_in_flight: 1, calls_in_flight: 2, account_backlog: 2, account_rate: null });
      expect(seen.accounts[0]).toMatchObject({ account_id: made.body.id, running: 1, waiting: 2 });
      expect(seen.accounts[0].refused).toBeGreaterThanOrEqual(1);
      // the demo account's call is not held behind them
      expect((await server.call('GET', '/api/v1/carts')).status).toBe(200);
      expect((await Promise.all(calls)).map((r) => r.status)).toEqual([200, 200, 200]);
      // its own key (a call queued like the others, once they are done) sees its account alone
      const own = (await server.call('GET', '/__sim/admission', { key: busy })).body;
      expect(own.accounts.map((a: { account_id: string }) => a.account_id)).toEqual([made.body.id]);
      const journal = await server.call('GET', `/__sim/requests?operation_id=listCarts&status=503`, { key: busy });
      expect(journal.body.count).toBeGreaterThanOrEqual(1);
    } finally {
      await server.close();
    }
  });
});

describe('a call made inside a call let in', () => {
  it("is not queued behind its own account: an MCP tool's call, at one call of the account in the works", async () => {
    const server = await startTestServer({ limits: { accountInFlight: 1 } });
    const client = new Client({ name: 'fairness', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/__sim/mcp', server.base), {
          requestInit: { headers: { authorization: 'Bearer demo-admin-key' } },
        }),
      );
      // the tool's call is the demo account's, made while the MCP call (the demo account's one in the works) waits for it
      const result = await client.callTool({ name: 'listCarts', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}')).toHaveProperty('results');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
