/**
 * The SMPP figures: a backlog of 10,000 inbound SMS queued for a key with no bind (what it costs in
 * memory), then the time from the bind until the last deliver_sm arrived at that one bind, and so
 * the rate of deliver_sm to one bind.
 */
import { listenSmpp } from '../src/server.js';
import { serve } from './sim.js';
import { envelope } from '../test/support/helpers.js';
import { client } from '../test/support/smpp_client.js';

const BACKLOG = 10_000;
const AUTH = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };

export interface SmppFigures {
  backlog: number;
  /** Heap used and RSS grown by queueing the backlog, in MB. */
  heapMb: number;
  rssMb: number;
  /** From the bind to the last deliver_sm received, ms. */
  drainMs: number;
  /** deliver_sm per second to the one bind while draining. */
  rate: number;
}

export async function smppBench(): Promise<SmppFigures> {
  const { runtime, base, close } = await serve();
  const call = async (method: string, path: string, body: unknown) =>
    (await fetch(base + path, { method, headers: AUTH, body: JSON.stringify(body) })).json() as Promise<{
      data: { id: string; smpp_system_id: string; smpp_secert: string };
    }>;
  const { port } = await listenSmpp(runtime, 0, '127.0.0.1');
  const key = (await call('POST', '/api/v1/api_keys', envelope('api_key', { name: 'bench' }))).data;
  const sw = (
    await call(
      'POST',
      '/api/v1/switches',
      envelope('switch', { name: 'smpp', sms_enabled: true, sms_protocol: 'SMPP', api_key_id: key.id }),
    )
  ).data;
  await call('PATCH', '/api/v1/numbers/+13125550100', envelope('did', { switch_id: sw.id }));

  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  let next = 0;
  const send = async () => {
    while (next < BACKLOG) {
      const i = next++;
      await call('POST', '/__sim/inbound/sms', { to: '+13125550100', from: '+14155550123', text: `message ${i}` });
    }
  };
  await Promise.all(Array.from({ length: 8 }, send));
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  const rssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;

  const c = await client(port);
  const t0 = performance.now();
  await c.bind('receiver', key.smpp_system_id, key.smpp_secert);
  while (c.received.length < BACKLOG) await new Promise((r) => setTimeout(r, 5));
  const drainMs = performance.now() - t0;
  c.close();
  await close();
  return { backlog: BACKLOG, heapMb, rssMb, drainMs, rate: (BACKLOG / drainMs) * 1000 };
}
