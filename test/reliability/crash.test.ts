import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { COMMAND } from '../support/cli_process.js';

/** Starts `src/cli/main.ts` as its own process on a data file; answers it and its base URL. */
async function start(file: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [...COMMAND, '--data', file, '--port', '0', '--clock', 'frozen'], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, base };
}

describe('crash safety', () => {
  it('after SIGKILL in a burst of mixed writes, a restart finds every acknowledged write, clock move and delivery', async () => {
    const receiver = await startReceiver();
    const file = join(mkdtempSync(join(tmpdir(), 'dipswitch-crash-')), 'db.json');
    const first = await start(file);
    const headers = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };
    await fetch(`${first.base}/api/v1/event_subscriptions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'event_subscription',
        data: { name: 'crash', protocol: 'HTTP', data: `${receiver.url}/e`, topics: ['DID'] },
      }),
    });
    const acknowledged: string[] = [];
    let clockAcknowledged = 0;
    let patchesAcknowledged = 0;
    let killed = false;
    const write = async (i: number) => {
      try {
        if (i % 10 === 0) {
          const res = await fetch(`${first.base}/__sim/clock/advance`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ by: 'PT1S' }),
          });
          if (res.status === 200)
            clockAcknowledged = Math.max(clockAcknowledged, Date.parse(((await res.json()) as { now: string }).now));
        } else if (i % 10 === 1) {
          const res = await fetch(`${first.base}/api/v1/numbers/+13125550100`, {
            method: 'PATCH',
            headers,
            body: JSON.stringify({ type: 'did', data: { auto_response_id: null } }),
          });
          if (res.status === 200) patchesAcknowledged++;
        } else {
          const res = await fetch(`${first.base}/api/v1/carts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ type: 'cart', data: { name: `burst ${i}` } }),
          });
          if (res.status === 201) acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
        }
      } catch {
        // the connection died with the server: this write was never acknowledged
      }
      if (!killed && acknowledged.length >= 40) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    };
    const burst = Array.from({ length: 400 }, (_, i) => i);
    for (let i = 0; i < burst.length; i += 20) await Promise.all(burst.slice(i, i + 20).map(write));
    expect(killed).toBe(true);
    if (first.child.exitCode === null && first.child.signalCode === null)
      await new Promise((r) => first.child.once('exit', r));
    const second = await start(file);
    try {
      const list = (await fetch(`${second.base}/api/v1/carts?first=100`, { headers }).then((r) => r.json())) as {
        count: number;
      };
      expect(list.count).toBeGreaterThanOrEqual(acknowledged.length);
      expect(acknowledged, 'something to check').not.toHaveLength(0);
      for (const id of acknowledged) {
        const res = await fetch(`${second.base}/api/v1/carts/${id}`, { headers });
        expect(res.status, id).toBe(200);
      }
      const clock = (await fetch(`${second.base}/__sim/clock`).then((r) => r.json())) as { now: string };
      expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(clockAcknowledged);
      const log = (await fetch(`${second.base}/__sim/deliveries`).then((r) => r.json())) as { count: number };
      expect(log.count).toBeGreaterThanOrEqual(patchesAcknowledged);
    } finally {
      second.child.kill('SIGKILL');
      await receiver.close();
    }
  }, 60_000);
});
