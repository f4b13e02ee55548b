// The control calls the dashboard stands on, without a browser: the live journal, redelivery, the page's files.
import { describe, expect, it } from 'vitest';
import { JOURNAL_STREAMS } from '../../src/harness/journal.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { envelope, liveJournal, useServer } from '../support/helpers.js';

describe('the live journal', () => {
  const server = useServer();

  it('sends each call as it is journaled, redacted, with account clock and wall times', async () => {
    const live = await liveJournal(server().base);
    try {
      expect(live.res.status).toBe(200);
      expect(live.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      await server().call('GET', '/api/v1/carts');
      const entry = await live.next();
      expect(entry).toMatchObject({ method: 'GET', path: '/api/v1/carts', operation_id: 'listCarts', status: 200 });
      expect(entry.at).toBe('2026-03-01T12:00:00.000Z');
      expect(entry.wall_at).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
      expect((entry.request as { headers: Record<string, string> }).headers.authorization).toBe('Bearer [redacted]');
      const page = await server().call('GET', '/__sim/requests', { key: null });
      expect(page.body.requests[0].id).toBe(entry.id);
    } finally {
      live.close();
    }
  });

  it(`at most ${JOURNAL_STREAMS} streams at once: one more answers 422 limit_reached`, async () => {
    const open = await Promise.all(Array.from({ length: JOURNAL_STREAMS }, () => liveJournal(server().base)));
    try {
      const more = await server().call('GET', '/__sim/requests/stream', { key: null });
      expect(more.status).toBe(422);
      expect(more.body.errors[0].code).toBe('limit_reached');
    } finally {
      for (const s of open) s.close();
    }
    // a closed stream makes room again
    await expect
      .poll(async () => {
        const again = await liveJournal(server().base);
        again.close();
        return again.res.status;
      })
      .toBe(200);
  });
});

describe('redelivery', () => {
  const server = useServer();

  it('sends a delivery again now whatever its outcome, replacing its pending retry', async () => {
    const receiver = await startReceiver();
    receiver.replies.push({ status: 500 });
    try {
      await server().call('POST', '/api/v1/event_subscriptions', {
        body: envelope('event_subscription', { protocol: 'HTTP', data: `${receiver.url}/e`, topics: ['DID'] }),
      });
      await server().call('PATCH', '/api/v1/numbers/+13125550101', { body: envelope('did', { description: 'x' }) });
      await server().settle();
      const [delivery] = (await server().call('GET', '/__sim/deliveries', { key: null })).body.deliveries;
      expect(delivery).toMatchObject({ outcome: 'retrying', attempts: [{ status: 500 }] });
      // one delivery by its id: the account's own, any account's without a key, another account's not found
      const one = await server().call('GET', `/__sim/deliveries/${delivery.id}`);
      expect(one).toMatchObject({ status: 200, body: delivery });
      expect((await server().call('GET', `/__sim/deliveries/${delivery.id}`, { key: null })).body).toEqual(delivery);
      expect(
        (await server().call('GET', `/__sim/deliveries/${delivery.id}`, { key: 'partner-admin-key' })).status,
      ).toBe(404);
      expect((await server().call('GET', '/__sim/deliveries/nope', { key: null })).status).toBe(404);
      const again = await server().call('POST', `/__sim/deliveries/${delivery.id}/redeliver`, { key: null });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ outcome: 'delivered', next_attempt_at: null });
      expect(again.body.attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
      const clock = await server().call('GET', '/__sim/clock', { key: null });
      expect(clock.body.pending.filter((s: { ref: string }) => s.ref === delivery.id)).toEqual([]);
      expect((await server().call('POST', '/__sim/deliveries/nope/redeliver', { key: null })).status).toBe(404);
      const partner = await server().call('POST', `/__sim/deliveries/${delivery.id}/redeliver`, {
        key: 'partner-admin-key',
      });
      expect(partner.status).toBe(404);
    } finally {
      await receiver.close();
    }
  });
});

describe('the dashboard’s files', () => {
  const server = useServer();

  it('the page, its modules and its style sheet are served without a token; nothing else is', async () => {
    for (const [path, type] of [
      ['/__sim/ui', 'text/html'],
      ['/__sim/ui/app.js', 'text/javascript'],
      ['/__sim/ui/api.js', 'text/javascript'],
      ['/__sim/ui/tab-state.js', 'text/javascript'],
      ['/__sim/ui/style.css', 'text/css'],
    ] as const) {
      const res = await fetch(`${server().base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
    }
    for (const path of [
      '/__sim/ui/index.html',
      '/__sim/ui/..%2Fsim%2Fcontrol.js',
      '/__sim/ui/..%2Fcontrol%2Fui.ts',
      '/__sim/ui/nope.js',
      '/__sim/ui/package.json',
    ])
      expect((await fetch(`${server().base}${path}`)).status, path).toBe(404);
  });
});
