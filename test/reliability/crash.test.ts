import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/http/contract.js';

/** Starts `src/main.ts` as its own process on a data file; answers it and its base URL. */
async function start(file: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--data', file, '--port', '0', '--clock', 'frozen'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
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
  it('after SIGKILL in a burst of writes, a restart finds every acknowledged write', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dipswitch-crash-')), 'db.json');
    const first = await start(file);
    const acknowledged: string[] = [];
    let killed = false;
    const write = async (i: number) => {
      try {
        const res = await fetch(`${first.base}/api/v1/carts`, {
          method: 'POST',
          headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'cart', data: { name: `burst ${i}` } }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
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
    if (first.child.exitCode === null && first.child.signalCode === null) await new Promise((r) => first.child.once('exit', r));
    const second = await start(file);
    try {
      const list = await fetch(`${second.base}/api/v1/carts?first=100`, { headers: { authorization: 'Bearer demo-admin-key' } }).then((r) => r.json()) as { count: number };
      expect(list.count).toBeGreaterThanOrEqual(acknowledged.length);
      for (const id of acknowledged) {
        const res = await fetch(`${second.base}/api/v1/carts/${id}`, { headers: { authorization: 'Bearer demo-admin-key' } });
        expect(res.status, id).toBe(200);
      }
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 60_000);
});
