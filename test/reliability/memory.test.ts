/**
 * Memory under hostile load (issue 13): a server in its own process, so its resident set is its
 * own, takes 2,000 unauthenticated 1 MB bodies and 5,000 authenticated 64 KB ones. The bound is
 * generous on purpose (350 MB; about 275–290 MB is seen on Node 20 and 24, with the young generation
 * fixed below): this measures that nothing keeps what it should not (before issue 13: 1.6 GB), not speed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { COMMAND } from '../support/cli_process.js';

async function start(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    // young-generation size fixed: Node 22 and later scale it with the machine's memory, which would measure the machine
    ['--max-semi-space-size=16', ...COMMAND, '--memory', '--port', '0', '--clock', 'frozen'],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, base };
}

/** The resident set of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** POSTs a body; answers the status, or 0 when the server closed before answering (allowed). */
function post(base: string, path: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function inParallel(n: number, width: number, task: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) statuses.push(await task(next++));
    }),
  );
  return statuses;
}

describe('memory', () => {
  it('2,000 unauthenticated 1 MB bodies and 5,000 64 KB bodies keep the server under 350 MB', async () => {
    const { child, base } = await start();
    const pid = child.pid ?? 0;
    try {
      const before = rssMb(pid);
      const mb = Buffer.from(
        JSON.stringify({ type: 'cart', data: { name: 'x', notes: 'n'.repeat(1024 * 1024 - 50) } }),
      );
      const unauthenticated = await inParallel(2_000, 8, () => post(base, '/api/v1/carts', mb, {}));
      expect(unauthenticated.filter((s) => s !== 403 && s !== 413 && s !== 0)).toEqual([]);
      const afterUnauthenticated = rssMb(pid);

      // refused bodies (an unknown field): journaled, never stored, so what grows is only what must not
      const body64 = (i: number) =>
        Buffer.from(JSON.stringify({ type: 'cart', data: { name: `c${i}`, padding: 'n'.repeat(64 * 1024 - 60) } }));
      const authenticated = await inParallel(5_000, 8, (i) =>
        post(base, '/api/v1/carts', body64(i), { authorization: 'Bearer demo-admin-key' }),
      );
      expect(authenticated.every((s) => s > 0 && s < 500)).toBe(true);
      const afterAuthenticated = rssMb(pid);

      let pageMs = Infinity;
      let pageBytes = 0;
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const page = await fetch(`${base}/__sim/requests?limit=100`);
        pageBytes = (await page.text()).length;
        pageMs = Math.min(pageMs, performance.now() - started);
        expect(page.status).toBe(200);
      }
      console.log(
        `memory: RSS ${before.toFixed(0)} MB at start, ${afterUnauthenticated.toFixed(0)} MB after 2,000 × 1 MB ` +
          `unauthenticated, ${afterAuthenticated.toFixed(0)} MB after 5,000 × 64 KB; a journal page of 100 at its cap: ` +
          `${(pageBytes / 1024).toFixed(0)} KB in ${pageMs.toFixed(0)} ms`,
      );
      expect(afterUnauthenticated).toBeLessThan(350);
      expect(afterAuthenticated).toBeLessThan(350);
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);
});
