import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { buildServer, listen } from '../../src/server.js';
import { fixtureState } from '../../src/store/fixtures.js';
import { JsonStore } from '../../src/store/embedded/json_store.js';
import { LogFile } from '../../src/store/embedded/log_file.js';
import type { Change } from '../../src/store/embedded/log_line.js';
import { emptyDb } from '../../src/store/schema.js';
import { envelope } from '../support/helpers.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'dipswitch-')), 'db.json');

/** A data file's log whose appends `around` wraps (counted, slowed, held at a gate). */
class WatchedLog extends LogFile {
  around: (append: () => Promise<void>) => Promise<void> = (append) => append();

  override append(changes: Change[]): Promise<void> {
    return this.around(() => super.append(changes));
  }
}

describe('store', () => {
  it('a committed change is on disk when the work resolves', async () => {
    const file = tempFile();
    const store = await JsonStore.open({ file }, silentLogger);
    await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
    await store.run({ account: 'a' }, async (w) => {
      const key = (await w.apiKeys.byKey('demo-admin-key'))!;
      await w.apiKeys.update(key, (d) => (d.data.name = 'renamed on disk'));
    });
    await store.close();
    const reopened = await JsonStore.open({ file }, silentLogger);
    expect((await reopened.run({ read: true }, (w) => w.apiKeys.byKey('demo-admin-key')))!.data.name).toBe(
      'renamed on disk',
    );
  });

  it('work that commits together is written together, in one append', async () => {
    const log = new WatchedLog(tempFile());
    const store = await JsonStore.open({ file: log.path, log }, silentLogger);
    await store.run({ global: true }, (w) => w.replaceAll(emptyDb()));
    let appends = 0;
    log.around = async (append) => {
      appends++;
      await new Promise((r) => setTimeout(r, 5));
      await append();
    };
    // the first append starts alone; the 49 that commit while it runs share the next one
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.run({ account: `a${i}` }, (w) =>
          w.sharedResourceGroups.insert({
            account_id: `a${i}`,
            data: { id: `g${i}`, name: `g${i}`, inserted_at: '2026-01-01T00:00:00.000Z' },
          }),
        ),
      ),
    );
    expect(appends).toBe(2);
    await store.close();
    const reopened = await JsonStore.open({ file: log.path }, silentLogger);
    expect((await reopened.run({ read: true }, (w) => w.exportState())).shared_resource_groups).toHaveLength(50);
  });

  it('reads share one unit of work that refuses every write, and answer only once what they saw is durable', async () => {
    const log = new WatchedLog(tempFile());
    const store = await JsonStore.open({ file: log.path, log }, silentLogger);
    await store.run({ global: true }, (w) => w.replaceAll(fixtureState()));
    const key = (await store.run({ read: true }, (w) => w.apiKeys.byKey('demo-admin-key')))!;
    await expect(
      store.run({ read: true }, (w) => w.apiKeys.update(key, (d) => (d.data.name = 'written in a read'))),
    ).rejects.toThrow('this unit of work only reads');
    await expect(store.run({ read: true }, async (w) => w.afterCommit(() => undefined))).rejects.toThrow(
      'this unit of work only reads',
    );
    expect((await store.run({ read: true }, (w) => w.apiKeys.byKey('demo-admin-key')))!.data.name).toBe(key.data.name);
    // a read that sees a change still being written answers after the write is on disk
    let onDisk = false;
    let appending!: () => void;
    let writeNow!: () => void;
    const started = new Promise<void>((r) => (appending = r));
    const gate = new Promise<void>((r) => (writeNow = r));
    log.around = async (append) => {
      appending();
      await gate;
      await append();
      onDisk = true;
    };
    const write = store.run({ account: key.account_id }, (w) =>
      w.apiKeys.update(key, (d) => (d.data.name = 'renamed')),
    );
    await started;
    const seen = store.run({ read: true }, (w) => w.apiKeys.byKey('demo-admin-key'));
    writeNow();
    expect((await seen)!.data.name).toBe('renamed');
    expect(onDisk).toBe(true);
    await write;
  });

  it('a restarted server on the same file finds every acknowledged write', async () => {
    const file = tempFile();
    const opts = { store: { file }, seed: 1, clockMode: 'frozen' as const, logger: silentLogger };
    const first = await buildServer(opts);
    const server = await listen(first.app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}/api/v1/api_keys`, {
          method: 'POST',
          headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
          body: JSON.stringify(envelope('api_key', { name: `burst ${i}` })),
        }).then((r) => r.json() as Promise<{ data: { id: string } }>),
      ),
    );
    await new Promise<void>((r) => server.close(() => r()));
    await first.runtime.close();
    const second = await buildServer(opts);
    const keys = await second.runtime.store.run({ read: true }, (w) => w.apiKeys.list());
    expect(created, 'something to check').not.toHaveLength(0);
    for (const c of created) expect(keys.map((k) => k.data.id)).toContain(c.data.id);
    // the file was not re-seeded over the writes
    expect(keys).toHaveLength(25);
    await second.runtime.close();
  });
});
