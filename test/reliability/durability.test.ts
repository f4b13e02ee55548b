import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { projectRoot } from '../../src/contract.js';
import { buildServer, listen, type Runtime } from '../../src/server.js';
import { startReceiver, type Receiver } from '../../src/testing/receiver.js';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { LogFile } from '../../src/store/embedded/log_file.js';
import type { Change } from '../../src/store/embedded/log_line.js';
import { StoreRefused } from '../../src/store/embedded/refusals.js';
import { DEMO, envelope } from '../support/helpers.js';

const START = new Date('2026-03-01T12:00:00.000Z');
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'dipswitch-durable-')), 'db.json');

interface Running {
  runtime: Runtime;
  call(method: string, path: string, body?: unknown, key?: string | null): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

let seed = 21;

/** A server on a data file, frozen at START, called over HTTP; each start draws other ids, as a restarted server does. */
async function open(file: string, clock: 'frozen' | 'real' = 'frozen', log?: LogFile): Promise<Running> {
  const { app, runtime } = await buildServer({
    store: { file, log },
    seed: seed++,
    clockMode: clock,
    startTime: START,
    logger: process.env.DEBUG_LOG ? console : silentLogger,
    validateResponses: true,
  });
  const http = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    runtime,
    async call(method, path, body, key = 'demo-admin-key') {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
      await runtime.close();
    },
  };
}

/** A data file's log on a disk that refuses every append while `refusing` is set. */
class FailingDisk extends LogFile {
  refusing: NodeJS.ErrnoException | null = null;

  override async append(changes: Change[]): Promise<void> {
    if (this.refusing) throw this.refusing;
    return super.append(changes);
  }
}

const diskError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

describe('a full disk', () => {
  it('a write the disk refuses answers 503 storage_unavailable, keeps nothing, and the server recovers by itself', async () => {
    const file = tempFile();
    const disk = new FailingDisk(file);
    const s = await open(file, 'frozen', disk);
    disk.refusing = diskError('ENOSPC', 'no space left on device, write');
    const refused = await s.call('POST', '/api/v1/carts', envelope('cart', { name: 'on a full disk' }));
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0]).toMatchObject({ code: 'storage_unavailable', title: 'Storage unavailable' });
    // memory is what the disk holds: the refused cart is not listed, and reads go on
    const listed = await s.call('GET', '/api/v1/carts');
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(0);
    // a step that falls due while the disk is full fails the advance, not the process
    await s.call(
      'POST',
      '/api/v1/bulk_dip_tasks',
      envelope('bulk_dip_task', { type: 'CNAM', numbers: ['+13125550100'], reference_id: 'full' }),
      'demo-standard-key',
    );
    expect((await s.call('GET', '/api/v1/bulk_dip_tasks', undefined, 'demo-standard-key')).body.count).toBe(0);
    disk.refusing = null;
    const created = await s.call('POST', '/api/v1/carts', envelope('cart', { name: 'space is back' }));
    expect(created.status).toBe(201);
    await s.stop();
    const again = await open(file);
    const carts = (await again.call('GET', '/api/v1/carts')).body;
    expect(carts.results.map((c: any) => c.data.name)).toEqual(['space is back']);
    await again.stop();
  });

  it('an advance whose step the disk refuses answers 503; once space returns the step runs', async () => {
    const file = tempFile();
    const disk = new FailingDisk(file);
    const s = await open(file, 'frozen', disk);
    await s.call(
      'POST',
      '/api/v1/bulk_dip_tasks',
      envelope('bulk_dip_task', { type: 'CNAM', numbers: ['+13125550100'], reference_id: 'later' }),
      'demo-standard-key',
    );
    disk.refusing = diskError('EIO', 'i/o error, write');
    expect((await s.call('POST', '/__sim/clock/advance', { by: 'PT10S' }, null)).status).toBe(503);
    disk.refusing = null;
    const advanced = await s.call('POST', '/__sim/clock/advance', { by: 'PT10S' }, null);
    expect(advanced.status).toBe(200);
    expect(
      (await s.call('GET', '/api/v1/bulk_dip_tasks', undefined, 'demo-standard-key')).body.results[0].data.status,
    ).toBe('COMPLETED');
    await s.stop();
  });
});

describe('a damaged store', () => {
  /** A store whose log holds the creation of `n` carts, one line each. */
  async function storeWithCarts(n: number): Promise<string> {
    const file = tempFile();
    const s = await open(file);
    for (let i = 0; i < n; i++)
      expect((await s.call('POST', '/api/v1/carts', envelope('cart', { name: `cart ${i}` }))).status).toBe(201);
    await s.stop();
    return file;
  }

  /** Overwrites ten bytes in the middle of line `line` (1 is the header) of the log. */
  function garble(file: string, line: number): number {
    const bytes = readFileSync(`${file}.log`);
    let offset = 0;
    for (let l = 1; l < line; l++) offset = bytes.indexOf(0x0a, offset) + 1;
    bytes.fill(0xff, offset + 40, offset + 50);
    writeFileSync(`${file}.log`, bytes);
    return offset;
  }

  it('a garbled line in the middle refuses to open, naming the file, the line, the byte and the writes after it', async () => {
    const file = await storeWithCarts(40);
    const offset = garble(file, 11);
    const before = readFileSync(`${file}.log`);
    const refusal = await JsonStore.open({ file }, silentLogger).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(StoreRefused);
    const message = (refusal as Error).message;
    expect(message).toContain(`${file}.log`);
    expect(message).toContain('line 11');
    expect(message).toContain(`byte ${offset}`);
    expect(message).toContain('30 acknowledged write(s) follow it');
    expect(message).not.toContain('demo-admin-key');
    // nothing was truncated or rewritten
    expect(Buffer.compare(readFileSync(`${file}.log`), before)).toBe(0);
  });

  it('repair moves the damaged log aside and keeps the writes before the damage', async () => {
    const file = await storeWithCarts(40);
    garble(file, 11);
    const warnings: string[] = [];
    const store = await JsonStore.open({ file, repair: true }, { warn: (m) => warnings.push(m) });
    const carts = await store.run({ read: true }, (w) => w.view(DEMO).carts.list());
    expect(carts.map((c) => c.data.name)).toEqual(Array.from({ length: 9 }, (_, i) => `cart ${i}`));
    expect(warnings.join('\n')).toMatch(/copied to .*db\.json\.log\.damaged-/);
    await store.close();
    // the repaired store opens as it is, and takes writes again
    const s = await open(file);
    expect((await s.call('POST', '/api/v1/carts', envelope('cart', { name: 'after repair' }))).status).toBe(201);
    expect((await s.call('GET', '/api/v1/carts')).body.count).toBe(10);
    await s.stop();
  });

  it('a file that is not a dipswitch store is refused and left as it was', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dipswitch-not-')), 'package.json');
    copyFileSync(join(projectRoot, 'package.json'), file);
    const before = readFileSync(file, 'utf8');
    const refusal = await JsonStore.open({ file }, silentLogger).then(
      () => null,
      (e: unknown) => e,
    );
    expect((refusal as StoreRefused).kind).toBe('not_a_store');
    expect((refusal as Error).message).toContain('is not a dipswitch store');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('half a snapshot is refused with the file named, not a TypeError', async () => {
    const file = await storeWithCarts(1);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    const refusal = await JsonStore.open({ file }, silentLogger).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(StoreRefused);
    expect((refusal as Error).message).toContain(`${file} is not valid JSON`);
  });
});

describe('effects survive a restart', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('a delivery waiting for its retry is sent after a restart', async () => {
    receiver = await startReceiver();
    receiver.replies.push({ status: 500 });
    const file = tempFile();
    const s = await open(file);
    await s.call(
      'POST',
      '/api/v1/event_subscriptions',
      envelope('event_subscription', {
        name: 'dids',
        protocol: 'HTTP',
        data: `${receiver.url}/events`,
        topics: ['DID'],
      }),
    );
    await s.call('PATCH', '/api/v1/numbers/+13125550100', envelope('did', { auto_response_id: null }));
    await s.call('POST', '/__sim/clock/advance', { by: 'PT0S' }, null);
    expect(receiver.received).toHaveLength(1);
    await s.stop();
    const again = await open(file);
    const advanced = await again.call('POST', '/__sim/clock/advance', { by: 'PT1M' }, null);
    expect(advanced.body.fired.map((f: any) => f.kind)).toEqual(['delivery']);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.json().data.id).toBe(receiver.received[0]!.json().data.id);
    const log = (await again.call('GET', '/__sim/deliveries', undefined, null)).body.deliveries;
    expect(log[0]).toMatchObject({ outcome: 'delivered', attempts: [{ status: 500 }, { status: 200 }] });
    await again.stop();
  });

  it('a bulk dip interrupted mid-delivery delivers its file after the restart, and its action completes', async () => {
    receiver = await startReceiver();
    receiver.replies.push({ status: 503 });
    const file = tempFile();
    const s = await open(file);
    const task = (
      await s.call(
        'POST',
        '/api/v1/bulk_dip_tasks',
        envelope('bulk_dip_task', {
          type: 'LRN',
          numbers: ['+13125550100', '+13125550101'],
          reference_id: 'interrupted',
          on_done_actions: [{ protocol: 'HTTP', data: `${receiver.url}/results` }],
        }),
        'demo-standard-key',
      )
    ).body.data;
    await s.call('POST', '/__sim/clock/advance', { by: 'PT5S' }, null);
    expect(receiver.received).toHaveLength(1);
    expect(
      (await s.call('GET', `/api/v1/bulk_dip_tasks/${task.id}`, undefined, 'demo-standard-key')).body.data
        .on_done_actions[0].status,
    ).toBe('DELIVERING');
    await s.stop();
    const again = await open(file);
    await again.call('POST', '/__sim/clock/advance', { by: 'PT2M' }, null);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.text.split('\r\n')[0]).toContain('number,lrn');
    const after = (await again.call('GET', `/api/v1/bulk_dip_tasks/${task.id}`, undefined, 'demo-standard-key')).body
      .data;
    expect(after).toMatchObject({ status: 'COMPLETED', on_done_actions: [{ status: 'COMPLETED', error_code: 'OK' }] });
    await again.stop();
  });

  it('a clock is never earlier after a restart than its last acknowledged advance', async () => {
    const file = tempFile();
    const s = await open(file);
    const moved = (await s.call('POST', '/__sim/clock/advance', { by: 'PT10M' }, null)).body.now;
    expect(moved).toBe('2026-03-01T12:10:00.000Z');
    await s.stop();
    const again = await open(file);
    expect((await again.call('GET', '/__sim/clock', undefined, null)).body).toMatchObject({
      now: moved,
      mode: 'frozen',
    });
    await again.stop();

    const real = tempFile();
    const r = await open(real, 'real');
    const ahead = Date.parse((await r.call('POST', '/__sim/clock/advance', { by: 'PT1H' }, null)).body.now);
    await r.stop();
    const r2 = await open(real, 'real');
    expect(Date.parse((await r2.call('GET', '/__sim/clock', undefined, null)).body.now)).toBeGreaterThanOrEqual(ahead);
    await r2.stop();
  });
});

describe('the API does not wait for receivers', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('a checkout answers while the event receiver still holds its request', async () => {
    receiver = await startReceiver();
    let release!: () => void;
    receiver.replies.push({ after: new Promise<void>((r) => (release = r)) });
    const s = await open(tempFile());
    await s.call(
      'POST',
      '/api/v1/event_subscriptions',
      envelope('event_subscription', {
        name: 'orders',
        protocol: 'HTTP',
        data: `${receiver.url}/events`,
        topics: ['ORDER'],
      }),
    );
    const cart = (await s.call('POST', '/api/v1/carts', envelope('cart', { name: 'slow receiver' }))).body.data;
    const checkout = await s.call('POST', `/api/v1/carts/${cart.id}/checkout`);
    expect(checkout.status).toBe(200);
    // the answer came while the receiver had not answered (it cannot, until released); the delivery
    // reaches it after the answer, as soon as the machine gets to it (a fixed wait was too short under load)
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 10_000 });
    release();
    await s.call('POST', '/__sim/clock/advance', { by: 'PT0S' }, null);
    const log = (await s.call('GET', '/__sim/deliveries', undefined, null)).body.deliveries;
    expect(log[0]).toMatchObject({ kind: 'event', outcome: 'delivered' });
    await s.stop();
  });
});

describe('the server on a store it refuses', () => {
  it('exits with code 2 and one line naming the file', async () => {
    const { spawnSync } = await import('node:child_process');
    const file = join(mkdtempSync(join(tmpdir(), 'dipswitch-refused-')), 'package.json');
    copyFileSync(join(projectRoot, 'package.json'), file);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--data', file, '--port', '0'], {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${file} is not a dipswitch store`);
  }, 60_000);
});
