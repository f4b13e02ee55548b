import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDb } from '../src/store/rows.js';
import { fixtureState } from '../src/store/fixtures.js';
import { Store } from '../src/store/store.js';
import { envelope } from './helpers.js';
import { buildServer, listen } from '../src/server.js';
import { silentLogger } from '../src/deps.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'dipswitch-')), 'db.json');

describe('store', () => {
  it('a committed change is on disk when commit resolves', async () => {
    const file = tempFile();
    const store = await Store.open({ file });
    await store.replace(fixtureState());
    const key = store.apiKeys.byKey('demo-admin-key')!;
    key.data.name = 'renamed on disk';
    store.apiKeys.touch(key);
    await store.commit();
    const reopened = await Store.open({ file });
    expect(reopened.apiKeys.byKey('demo-admin-key')!.data.name).toBe('renamed on disk');
  });

  it('changes that arrive together are written together, in one append', async () => {
    const store = await Store.open({ file: tempFile() });
    await store.replace(emptyDb());
    let appends = 0;
    const log = (store as unknown as { log: { append(c: unknown): Promise<void> } }).log;
    const original = log.append.bind(log);
    log.append = async (changes) => {
      appends++;
      await new Promise((r) => setTimeout(r, 5));
      return original(changes);
    };
    await Promise.all(Array.from({ length: 50 }, (_, i) => {
      store.sharedResourceGroups.insert({ account_id: 'a', data: { id: `g${i}`, name: `g${i}`, inserted_at: '2026-01-01T00:00:00.000Z' } });
      return store.commit();
    }));
    expect(appends).toBe(1);
    const reopened = await Store.open({ file: (store as unknown as { log: { path: string } }).log.path });
    expect(reopened.sharedResourceGroups.filter(() => true)).toHaveLength(50);
  });

  it('a restarted server on the same file finds every acknowledged write', async () => {
    const file = tempFile();
    const opts = { store: { file }, seed: 1, clockMode: 'frozen' as const, logger: silentLogger };
    const first = await buildServer(opts);
    const server = await listen(first.app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      fetch(`${base}/api/v1/api_keys`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
        body: JSON.stringify(envelope('api_key', { name: `burst ${i}` })),
      }).then((r) => r.json() as Promise<{ data: { id: string } }>)));
    await new Promise<void>((r) => server.close(() => r()));
    const second = await buildServer(opts);
    for (const c of created) expect(second.deps.store.apiKeys.getAnyAccount(c.data.id)?.data.id).toBe(c.data.id);
    // the file was not re-seeded over the writes
    expect(second.deps.store.apiKeys.filter(() => true)).toHaveLength(25);
  });
});
