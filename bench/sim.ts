/** The simulation figures: wall time of one advance that completes many dips, or one very large one. */
import { envelope } from '../test/support/helpers.js';
import type { Receiver } from '../src/testing/receiver.js';
import { buildServer, listen, scratchOptions } from '../src/server.js';
import { DEMO_ACCOUNT as DEMO } from '../src/store/fixtures.js';

/** An in-memory dipswitch on a frozen clock for the simulation benches: its runtime, base URL, a POST as the standard key. */
export async function serve() {
  const { app, runtime } = await buildServer({
    ...scratchOptions(),
  });
  const server = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const post = (path: string, body: unknown) =>
    fetch(base + path, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-standard-key', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const close = async () => {
    await new Promise((r) => server.close(r));
    await runtime.close();
  };
  return { runtime, base, post, close };
}

export async function simBench(
  startReceiver: () => Promise<Receiver>,
): Promise<{ thousandDips: number; bigDip: number }> {
  const a = await serve();
  for (let i = 0; i < 1_000; i++) {
    const numbers = Array.from({ length: 100 }, (_, j) => `+1312${String(2_000_000 + i * 100 + j)}`);
    await a.post(
      '/api/v1/bulk_dip_tasks',
      envelope('bulk_dip_task', { type: 'LRN', numbers, reference_id: `bench-${i}` }),
    );
  }
  let t0 = performance.now();
  await a.runtime.scheduler.advance(DEMO, Date.parse('2026-03-01T12:10:00.000Z'));
  const thousandDips = performance.now() - t0;
  const done = (await a.runtime.store.run({ read: true }, (w) => w.view(DEMO).bulkDipTasks.list())).filter(
    (t) => t.data.status === 'COMPLETED',
  ).length;
  if (done !== 1_000) throw new Error(`only ${done} dips completed`);
  await a.close();

  const b = await serve();
  const receiver = await startReceiver();
  const numbers = Array.from({ length: 20_000 }, (_, i) => `+1312${String(3_000_000 + i)}`);
  await b.post(
    '/api/v1/bulk_dip_tasks',
    envelope('bulk_dip_task', {
      type: 'LRN',
      numbers,
      reference_id: 'big',
      on_done_actions: [{ protocol: 'HTTP', data: `${receiver.url}/big` }],
    }),
  );
  t0 = performance.now();
  await b.runtime.scheduler.advance(DEMO, Date.parse('2026-03-01T12:10:00.000Z'));
  const bigDip = performance.now() - t0;
  if (receiver.received.length !== 1) throw new Error('the big file was not delivered');
  await receiver.close();
  await b.close();
  return { thousandDips, bigDip };
}
