/**
 * One store, one owner: a second process on the same store folder is refused in one line naming
 * the first, which goes on serving; a process killed with SIGKILL leaves nothing that blocks the
 * next start; a log two writers damaged is repaired, each unique key kept by its first holder.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { LogFile } from '../../src/store/embedded/log_file.js';
import { StoreRefused } from '../../src/store/embedded/refusals.js';
import { StoreHeld } from '../../src/store/embedded/owner.js';
import { fixtureState } from '../../src/store/fixtures.js';
import type { CartRow } from '../../src/domain/rows.js';
import { runCli, startCli } from '../support/cli_process.js';
import { DEMO } from '../support/helpers.js';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'dipswitch-owner-'));

const cart = (id: string, name: string): CartRow => ({
  account_id: DEMO,
  data: { id, name, notes: null, inserted_at: '2026-03-01T12:00:00.000Z', updated_at: '2026-03-01T12:00:00.000Z' },
});

describe('one store, one owner', () => {
  it('a second process on the same store is refused in one line naming the first, which goes on serving', async () => {
    const file = join(tempDir(), 'db.json');
    const first = await startCli(['--data', file, '--port', '0', '--smpp-port', '0']);
    try {
      const second = runCli(['--data', file, '--port', '0', '--smpp-port', '0']);
      expect(second.status).toBe(1);
      const lines = second.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`is in use by process ${first.child.pid}`);
      expect(lines[0]).toContain(`serving ${first.base}`);
      const repair = runCli(['store', 'repair', '--data', file]);
      expect(repair.status).toBe(1);
      expect(repair.stderr).toContain('is in use by process');
      const answer = await fetch(`${first.base}/api/v1/carts`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'cart', data: { name: 'still mine' } }),
      });
      expect(answer.status).toBe(201);
    } finally {
      await first.stop();
    }
  });

  it('a process killed with SIGKILL leaves no lock behind: the next start opens the store at once', async () => {
    const file = join(tempDir(), 'db.json');
    const first = await startCli(['--data', file, '--port', '0', '--smpp-port', '0']);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const next = await startCli(['--data', file, '--port', '0', '--smpp-port', '0']);
    expect((await fetch(`${next.base}/__sim/health`)).status).toBe(200);
    await next.stop();
  });

  it('in one process too: a store open twice is refused until the first closes', async () => {
    const file = join(tempDir(), 'db.json');
    const store = await JsonStore.open({ file }, silentLogger);
    const again = await JsonStore.open({ file }, silentLogger).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(StoreHeld);
    await store.close();
    await (await JsonStore.open({ file }, silentLogger)).close();
  });

  it('a log two writers appended to is refused, and repaired: every write kept, each unique key by its first holder', async () => {
    const folder = tempDir();
    const file = join(folder, 'db.json');
    const seeded = await JsonStore.open({ file }, silentLogger);
    await seeded.run({ global: true }, (w) => w.replaceAll(fixtureState()));
    await seeded.close();
    // two writers, as two processes without the lock were: each starts the empty log with its own header
    const a = new LogFile(file);
    const b = new LogFile(file);
    await a.append([['put', 'carts', cart('cart-a', 'shared-name')]]);
    await b.append([['put', 'carts', cart('cart-b', 'shared-name')]]);
    await a.append([['put', 'carts', cart('cart-c', 'only a')]]);
    const damaged = join(tempDir(), 'db.json');
    copyFileSync(file, damaged);
    copyFileSync(`${file}.log`, `${damaged}.log`);

    const refused = await JsonStore.open({ file: damaged }, silentLogger).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreRefused);
    expect((refused as Error).message).toMatch(/two processes appended to this log/);

    const repair = runCli(['store', 'repair', '--data', damaged]);
    expect(repair.status, repair.stderr).toBe(0);
    const aside = /moved to (\S+\.json)/.exec(repair.stdout)?.[1];
    expect(aside, repair.stdout).toBeDefined();
    expect(existsSync(aside!)).toBe(true);
    const setAside = JSON.parse(readFileSync(aside!, 'utf8')) as { collection: string; row: CartRow }[];
    expect(setAside.map((r) => [r.collection, r.row.data.id])).toEqual([['carts', 'cart-b']]);

    const store = await JsonStore.open({ file: damaged }, silentLogger);
    const names = await store.run({ read: true }, (w) => w.view(DEMO).carts.list());
    expect(names.map((c) => c.data.id).sort()).toEqual(['cart-a', 'cart-c']);
    await store.close();
  });

  it('a unique key held twice in the snapshot is refused with one line, not a stack, and repaired', async () => {
    const file = join(tempDir(), 'db.json');
    const state = fixtureState();
    state.carts = [cart('x1', 'twice'), cart('x2', 'twice')];
    writeFileSync(file, JSON.stringify({ format: 'dipswitch-store', version: 2, collections: state }));
    const run = runCli(['--data', file, '--port', '0', '--smpp-port', '0']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('unique index carts.name');
    expect(runCli(['store', 'repair', '--data', file]).status).toBe(0);
    const store = await JsonStore.open({ file }, silentLogger);
    expect((await store.run({ read: true }, (w) => w.view(DEMO).carts.list())).map((c) => c.data.id)).toEqual(['x1']);
    await store.close();
  });
});

describe('instances side by side', () => {
  it('the default SMPP port taken, a second instance takes a free one and says so; one asked for is refused', async () => {
    // whoever holds 2775 (this test, or anything else on the machine) makes the default give way
    const holder = createServer().on('error', () => undefined);
    await new Promise<void>((r) => holder.listen(2775, '127.0.0.1', () => r()).once('error', () => r()));
    try {
      const started = await startCli(['--memory', '--port', '0'], {
        env: { SMPP_PORT: '' },
        ready: /SMPP: (smpp:\/\/127\.0\.0\.1:\d+)/,
      });
      try {
        expect(started.base).not.toBe('smpp://127.0.0.1:2775');
        expect(started.out()).toMatch(/SMPP: smpp:\/\/127\.0\.0\.1:\d+ \(port 2775 is in use: a free one instead\)/);
      } finally {
        await started.stop();
      }
      const asked = runCli(['--memory', '--port', '0', '--smpp-port', '2775']);
      expect(asked.status).toBe(1);
      expect(asked.stderr).toContain('port 2775 on 127.0.0.1 is in use');
    } finally {
      holder.close();
    }
  });
});

describe('npm start in a script', () => {
  it('stops on SIGTERM, its port free within 5 s', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const npm = spawn('npm', ['start', '--', '--memory', '--port', String(port), '--smpp-port', '0'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 50_000);
      npm.stdout.on('data', () => {
        if (/serving http/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    npm.kill('SIGTERM');
    const free = () =>
      new Promise<boolean>((resolve) => {
        const probe = createServer()
          .once('error', () => resolve(false))
          .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
      });
    await eventually(free, `port ${port} free after SIGTERM to npm`, 5_000);
  });
});
