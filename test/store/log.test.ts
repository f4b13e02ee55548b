import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { buildServer, listen } from '../../src/server.js';
import { ScenarioCatalog } from '../../src/testing/scenario_runner.js';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { LogFile } from '../../src/store/embedded/log_file.js';
import { emptyLists, type AnyRow, type DbData } from '../../src/store/schema.js';

const shelf = new ScenarioCatalog();

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'dipswitch-log-')), 'db.json');
const stateOf = (store: JsonStore) => store.run({ read: true }, (w) => w.exportState());

describe('the change log store', () => {
  it('a restart finds exactly the state the server had, after every kind of change the scenarios make', async () => {
    const file = tempFile();
    const { app, runtime } = await buildServer({
      store: { file },
      seed: 5,
      clockMode: 'frozen',
      startTime: new Date('2026-03-01T12:00:00.000Z'),
      logger: silentLogger,
    });
    const server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    for (const name of await shelf.names()) expect((await shelf.run(base, name)).passed, name).toBe(true);
    // an update in the same frozen instant as the create must be logged too
    const headers = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };
    const cart = await fetch(`${base}/api/v1/carts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'cart', data: { name: 'same instant' } }),
    }).then((r) => r.json());
    await fetch(`${base}/api/v1/carts/${cart.data.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ type: 'cart', data: { notes: 'changed at once' } }),
    });
    await new Promise((r) => server.close(r));
    await runtime.close();
    const live = await stateOf(runtime.store as JsonStore);
    expect(statSync(`${file}.log`).size).toBeGreaterThan(0);
    const reopened = await JsonStore.open({ file }, silentLogger);
    expect(await stateOf(reopened)).toEqual(live);
  });

  it('a write appends a line; it does not rewrite the snapshot', async () => {
    const file = tempFile();
    const { app, runtime } = await buildServer({ store: { file }, seed: 6, clockMode: 'frozen', logger: silentLogger });
    const snapshotBytes = readFileSync(file).length;
    const server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await fetch(`${base}/api/v1/carts`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'cart', data: { name: 'one line' } }),
    });
    await new Promise((r) => server.close(r));
    await runtime.close();
    expect(readFileSync(file).length).toBe(snapshotBytes);
    const [header, ...lines] = readFileSync(`${file}.log`, 'utf8').trim().split('\n');
    expect(header).toBe('#dipswitch-log 2');
    expect(lines).toHaveLength(1);
    const [, , , json] = /^(\d+) ([0-9a-f]{8}) (.*)$/.exec(lines[0]!)!;
    expect(JSON.parse(json!)[0]).toMatchObject(['put', 'carts', { data: { name: 'one line' } }]);
  });

  it('a torn last line (a crash mid-append) is dropped with a warning; everything before it is kept', async () => {
    const file = tempFile();
    const first = await buildServer({ store: { file }, seed: 7, clockMode: 'frozen', logger: silentLogger });
    await first.runtime.store.run({ account: 'a' }, (w) =>
      w.carts.insert({
        account_id: 'a',
        data: {
          id: '01KJ0000000000000000000001',
          name: 'kept',
          notes: null,
          inserted_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
    await first.runtime.close();
    const logged = readFileSync(`${file}.log`).length;
    appendFileSync(`${file}.log`, '812 0badf00d [["put","carts",{"account_id":"a","data":{"id":"01KJ00000000');
    const warnings: string[] = [];
    const reopened = await JsonStore.open({ file }, { warn: (m) => warnings.push(m) });
    expect((await reopened.run({ read: true }, (w) => w.carts.get('01KJ0000000000000000000001')))?.data.name).toBe(
      'kept',
    );
    expect(readFileSync(`${file}.log`).length).toBe(logged);
    expect(warnings.join('\n')).toContain(`dropped a torn last write at byte ${logged}`);
  });
});

/** A log file that notes, at each fsync of its folder, what a power cut at that instant would leave. */
class WatchedLog extends LogFile {
  readonly syncs: string[] = [];
  protected override async syncFolder(): Promise<void> {
    const snapshot = existsSync(this.path)
      ? (JSON.parse(readFileSync(this.path, 'utf8')).collections.marker as string)
      : 'absent';
    const log = existsSync(this.logPath) ? statSync(this.logPath).size : 'absent';
    this.syncs.push(`snapshot ${snapshot}, log ${log}`);
    await super.syncFolder();
  }
}

describe('the store folder, fsynced', () => {
  it('after a snapshot is renamed in (before its log is cut), after the log is made, after a file kept aside', async () => {
    const log = new WatchedLog(tempFile());
    const state = (marker: string) => Object.assign(emptyLists(), { marker }) as DbData;
    const row = { data: { id: 'c1', account_id: 'a' } } as unknown as AnyRow;
    await log.write(state('first'));
    expect(log.syncs).toEqual(['snapshot first, log absent']);
    await log.append([['put', 'carts', row]]);
    await log.append([['del', 'carts', 'c1']]);
    // the first line made the log; the second only grew it
    expect(log.syncs).toHaveLength(2);
    expect(log.syncs[1]).toMatch(/^snapshot first, log [1-9]\d*$/);
    await log.write(state('second'));
    // the new snapshot's name is durable while the log still holds every line
    expect(log.syncs[2]).toMatch(/^snapshot second, log [1-9]\d*$/);
    expect(statSync(log.logPath).size).toBe(0);
    const aside = await log.keepAside([row]);
    expect(existsSync(aside)).toBe(true);
    expect(log.syncs).toHaveLength(4);
  });
});
