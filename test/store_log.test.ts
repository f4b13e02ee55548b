import { appendFileSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../src/deps.js';
import { buildServer, listen } from '../src/server.js';
import { runScenarioByName, scenarioNames } from '../src/sim/scenario_runner.js';
import { Store } from '../src/store/store.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'dipswitch-log-')), 'db.json');

describe('the change log store', () => {
  it('a restart finds exactly the state the server had, after every kind of change the scenarios make', async () => {
    const file = tempFile();
    const { app, deps } = await buildServer({ store: { file }, seed: 5, clockMode: 'frozen', startTime: new Date('2026-03-01T12:00:00.000Z'), logger: silentLogger });
    const server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    for (const name of scenarioNames()) expect((await runScenarioByName(base, name)).passed, name).toBe(true);
    // an update in the same frozen instant as the create must be logged too
    const headers = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };
    const cart = await fetch(`${base}/api/v1/carts`, { method: 'POST', headers, body: JSON.stringify({ type: 'cart', data: { name: 'same instant' } }) }).then((r) => r.json());
    await fetch(`${base}/api/v1/carts/${cart.data.id}`, { method: 'PATCH', headers, body: JSON.stringify({ type: 'cart', data: { notes: 'changed at once' } }) });
    await deps.store.commit();
    const live = deps.store.snapshot();
    deps.scheduler.stop();
    await new Promise((r) => server.close(r));
    expect(statSync(`${file}.log`).size).toBeGreaterThan(0);
    const reopened = await Store.open({ file });
    expect(reopened.snapshot()).toEqual(live);
  });

  it('a write appends a line; it does not rewrite the snapshot', async () => {
    const file = tempFile();
    const { app, deps } = await buildServer({ store: { file }, seed: 6, clockMode: 'frozen', logger: silentLogger });
    const snapshotBytes = readFileSync(file).length;
    const server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await fetch(`${base}/api/v1/carts`, { method: 'POST', headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' }, body: JSON.stringify({ type: 'cart', data: { name: 'one line' } }) });
    deps.scheduler.stop();
    await new Promise((r) => server.close(r));
    expect(readFileSync(file).length).toBe(snapshotBytes);
    const lines = readFileSync(`${file}.log`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)[0]).toMatchObject(['put', 'carts', { data: { name: 'one line' } }]);
  });

  it('a torn last line (a crash mid-append) is dropped; everything before it is kept', async () => {
    const file = tempFile();
    const first = await buildServer({ store: { file }, seed: 7, clockMode: 'frozen', logger: silentLogger });
    const store = first.deps.store;
    store.carts.insert({ account_id: 'a', data: { id: '01KJ0000000000000000000001', name: 'kept', notes: null, inserted_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' } });
    await store.commit();
    first.deps.scheduler.stop();
    appendFileSync(`${file}.log`, '[["put","carts",{"account_id":"a","data":{"id":"01KJ00000000');
    const reopened = await Store.open({ file });
    expect(reopened.carts.getAnyAccount('01KJ0000000000000000000001')?.data.name).toBe('kept');
    expect(readFileSync(`${file}.log`, 'utf8').endsWith('\n')).toBe(true);
  });
});
