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
  it('a committed change is in the file when commit resolves', async () => {
    const file = tempFile();
    const store = await Store.open({ file });
    await store.replace(fixtureState());
    const key = store.apiKeys.byKey('demo-admin-key')!;
    key.data.name = 'renamed on disk';
    await store.commit();
    expect(JSON.parse(readFileSync(file, 'utf8')).api_keys[0].data.name).toBe('renamed on disk');
  });

  it('changes that arrive together are written together, in one file write', async () => {
    const store = await Store.open({ memory: true });
    await store.replace(emptyDb());
    let writes = 0;
    const db = (store as unknown as { db: { write(): Promise<void> } }).db;
    const original = db.write.bind(db);
    db.write = async () => {
      writes++;
      await new Promise((r) => setTimeout(r, 5));
      return original();
    };
    await Promise.all(Array.from({ length: 50 }, () => store.commit()));
    expect(writes).toBeLessThanOrEqual(2);
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
