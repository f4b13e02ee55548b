/**
 * `BENCH_ONLY=sandboxes`: what a hosted server keeps of the sandboxes it made and removed. Sandboxes are
 * made, used (a cart, a fault rule of its own, a GET) and removed, one after another, through the HTTP
 * API of an in-process server; the heap is read after a full collection at each mark, and the time each
 * stretch took. Flat heap: nothing of a removed account stays (but its coverage tally, bounded).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { envelope } from '../test/support/helpers.js';
import { buildServer, listen, scratchOptions } from '../src/server.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The heap in MB after a full collection (twice: weak references go in the second). */
function heapMb(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed / 1e6;
}

export interface SandboxMark {
  made: number;
  heapMb: number;
  /** Seconds the stretch since the last mark took. */
  seconds: number;
}

/** A fetch tried again once when the server had closed the idle connection it reused (after a long collection). */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
    return fetch(url, init);
  }
}

/** Makes, uses and removes `total` sandboxes; a mark every `every`. */
export async function sandboxChurn(
  total = 20_000,
  every = 2_000,
  first = 1_000,
  atMark: (made: number) => void = () => {},
): Promise<SandboxMark[]> {
  const { app, runtime } = await buildServer({ ...scratchOptions(), clockMode: 'real' });
  const server = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const call = async (method: string, path: string, key?: string, body?: unknown) => {
    const res = await fetchOnce(base + path, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const marks: SandboxMark[] = [];
  let started = performance.now();
  try {
    for (let n = 1; n <= total; n++) {
      const box = (await call('POST', '/__sim/accounts', undefined, { name: `churn ${n}` })) as {
        id: string;
        keys: { admin: string };
      };
      const key = box.keys.admin;
      const cart = (await call('POST', '/api/v1/carts', key, envelope('cart', { name: `cart ${n}` }))) as {
        data: { id: string };
      };
      await call('POST', '/__sim/faults', key, {
        match: { operation_id: 'getCart' },
        effect: { delay_ms: 1 },
        times: 1,
      });
      await call('GET', `/api/v1/carts/${cart.data.id}`, key);
      await call('DELETE', `/__sim/accounts/${box.id}`);
      if (n === first || n % every === 0) {
        marks.push({ made: n, heapMb: heapMb(), seconds: (performance.now() - started) / 1000 });
        atMark(n);
        started = performance.now();
      }
    }
  } finally {
    await new Promise((r) => server.close(r));
    await runtime.close();
  }
  return marks;
}

/** The marks as a table's rows. */
export function churnRows(marks: SandboxMark[]): { name: string; note: string }[] {
  return marks.map((m) => ({
    name: `sandboxes made, used and removed: ${m.made.toLocaleString('en')}`,
    note: `heap ${m.heapMb.toFixed(1)} MB after a collection; ${m.seconds.toFixed(1)} s since the last mark`,
  }));
}
