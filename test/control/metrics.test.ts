/** GET /__sim/metrics: Prometheus's text format, read by a parser of that format, its counters matching the journal. */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { envelope, startTestServer, useReceiver, useServer } from '../support/helpers.js';

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[];
}

const family = (families: Family[], name: string) => families.find((f) => f.name === name);

describe('metrics', () => {
  const server = useServer();
  const receiver = useReceiver();

  it('counts calls by operation and status with a latency histogram, deliveries, and reads the gauges', async () => {
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'm' }) });
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'm' }) });
    for (let i = 0; i < 3; i++) await server().call('GET', '/api/v1/carts');
    await server().call('POST', '/__sim/accounts', { key: null, body: {} });
    await server().call('POST', '/api/v1/event_subscriptions', {
      body: envelope('event_subscription', {
        name: 'e',
        protocol: 'HTTP',
        data: `${receiver().url}/ev`,
        topics: ['DID'],
      }),
    });
    await server().call('PATCH', '/api/v1/numbers/+13125550100', { body: envelope('did', { description: 'm' }) });
    await server().settle();

    const scrape = await server().call('GET', '/__sim/metrics', { key: null });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(scrape.text) as Family[];

    // the counters match the journal, call for call
    const journal = (await server().call('GET', '/__sim/requests?limit=1000', { key: null })).body.requests as {
      operation_id: string;
      status: number;
    }[];
    const calls = family(families, 'dipswitch_calls_total')!;
    for (const [operation, status] of [
      ['createCart', 201],
      ['createCart', 422],
      ['listCarts', 200],
    ] as const) {
      const counted = calls.metrics.find(
        (m) => m.labels?.api === 'v1' && m.labels.operation === operation && m.labels.status === String(status),
      );
      const journaled = journal.filter((e) => e.operation_id === operation && e.status === status).length;
      expect(Number(counted?.value), `${operation} ${status}`).toBe(journaled);
    }
    const latency = family(families, 'dipswitch_call_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    // the parser keeps a histogram's buckets, not its labels: its count of a series is read from the text
    expect(scrape.text).toMatch(/^dipswitch_call_duration_seconds_count\{api="v1",operation="listCarts"\} 3$/m);
    const attempts = family(families, 'dipswitch_delivery_attempts_total')!;
    expect(attempts.metrics).toContainEqual(
      expect.objectContaining({ labels: { protocol: 'HTTP', kind: 'event', outcome: 'delivered' }, value: '1' }),
    );
    expect(family(families, 'dipswitch_sandboxes')?.metrics[0]?.value).toBe('1');
    expect(Number(family(families, 'dipswitch_journal_bytes')?.metrics[0]?.value)).toBeGreaterThan(0);
    expect(family(families, 'dipswitch_smpp_binds')?.metrics[0]?.value).toBe('0');
    expect(Number(family(families, 'dipswitch_steps_pending')?.metrics[0]?.value)).toBeGreaterThan(0);
  });

  it('spans accounts: with an admin token set, a scrape needs the token, not an account key', async () => {
    const s = await startTestServer({ simAdminToken: 't' });
    try {
      expect((await s.call('GET', '/__sim/metrics')).status).toBe(403);
      expect((await s.call('GET', '/__sim/metrics', { key: null, headers: { 'x-sim-admin-token': 't' } })).status).toBe(
        200,
      );
    } finally {
      await s.close();
    }
  });
});
