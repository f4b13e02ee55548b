import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract.js';
import { silentLogger } from '../../src/deps.js';
import { fixtureState, loadFixtureFile, readFixtureFile } from '../../src/store/fixtures.js';
import { runScenario } from '../../src/testing/scenario.js';
import { ScenarioCatalog } from '../../src/testing/scenario_runner.js';
import { Recorder } from '../../src/trust/recording.js';
import { runCliAsync } from '../support/cli_process.js';
import { callAt, startTestServer, type TestServer, startTestProxy } from '../support/helpers.js';

/** The request body example of an operation of the contract. */
function example(operationId: string): unknown {
  const paths = loadContract().document.paths as Record<
    string,
    Record<string, { operationId?: string; requestBody?: { content: Record<string, { example?: unknown }> } }>
  >;
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      if (op?.operationId === operationId) return Object.values(op.requestBody?.content ?? {})[0]?.example;
  throw new Error(`no operation ${operationId}`);
}

/** The default fixtures with five more Demo numbers (+1646555020x): the "real service" holds records dipswitch's defaults do not. */
function otherFixtures() {
  const file = readFixtureFile();
  const [first] = file.numbers ?? [];
  if (!first) throw new Error('the default fixtures hold numbers');
  const more = [0, 1, 2, 3, 4].map((i) => ({
    ...structuredClone(first),
    data: {
      ...structuredClone(first.data),
      id: `0a0a0a0a-0000-4000-8000-00000000090${i}`,
      number: `+1646555020${i}`,
      state: 'NY',
    },
  }));
  return { ...file, numbers: [...(file.numbers ?? []), ...more] };
}

describe('dipswitch proxy --record', () => {
  let upstream: TestServer;
  let dir: string;
  let recorder: Recorder;

  beforeAll(async () => {
    upstream = await startTestServer({ fixtures: () => fixtureState(otherFixtures()) });
    dir = mkdtempSync(join(tmpdir(), 'dipswitch-record-'));
    recorder = new Recorder({
      dir,
      name: 'recorded-session',
      title: 'a session of every resource',
      fixtures: true,
      logger: silentLogger,
    });
    const proxy = await startTestProxy(upstream.base, { recorder });
    const { base } = proxy;
    const made: Record<string, string> = {};
    const c = async (method: string, path: string, operationId?: string) => {
      const filled = path.replace(/\{(\w+)\}/g, (_, k: string) => made[k] ?? `{${k}}`);
      const res = await callAt(base, method, filled, operationId ? { body: example(operationId) } : {});
      expect(res.status, `${method} ${filled}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      if (method === 'POST' && res.body?.data?.id) made[res.body.type] ??= res.body.data.id;
      if (res.body?.page_info?.last) made.cursor = res.body.page_info.last;
      return res;
    };
    // a session of every resource of /api/v1, through the proxy
    await c('GET', '/api/v1/numbers?first=5');
    await c('GET', '/api/v1/numbers?first=5&after={cursor}');
    for (const n of ['+13125550100', '+16465550200', '0a0a0a0a-0000-4000-8000-000000000902'])
      await c('GET', `/api/v1/numbers/${n}`);
    await c('PATCH', '/api/v1/numbers/+16465550201', 'updateNumber');
    await c('POST', '/api/v1/api_keys', 'createApiKey');
    await c('PATCH', '/api/v1/api_keys/{api_key}', 'updateApiKey');
    await c('POST', '/api/v1/secret_keys', 'createSecretKey');
    await c('PATCH', '/api/v1/secret_keys/{secret_key}', 'updateSecretKey');
    await c('POST', '/api/v1/users', 'createUser');
    await c('PATCH', '/api/v1/users/{user}', 'updateUser');
    await c('POST', '/api/v1/switches', 'createSwitch');
    await c('PATCH', '/api/v1/switches/{switch}', 'updateSwitch');
    await c('PUT', '/api/v1/switches/{switch}/mms_encryption_key/{secret_key}', 'attachMmsEncryptionKey');
    await c('POST', '/api/v1/auto_responses', 'createAutoResponse');
    await c('PATCH', '/api/v1/auto_responses/{messaging_auto_response}', 'updateAutoResponse');
    await c('POST', '/api/v1/numbers/+16465550202/optout_items', 'createOptoutItem');
    await c('POST', '/api/v1/numbers/+16465550202/destinations', 'createDestination');
    await c('PATCH', '/api/v1/numbers/+16465550202/destinations/{number_destination}', 'updateDestination');
    await c('POST', '/api/v1/carts', 'createCart');
    await c('PATCH', '/api/v1/carts/{cart}', 'updateCart');
    await c('POST', '/api/v1/carts/{cart}/requests', 'createCartRequest');
    await c('PATCH', '/api/v1/carts/{cart}/requests/{request}', 'updateCartRequest');
    const form = new FormData();
    form.append('name', 'letter of authorization');
    form.append('file', new Blob(['%PDF-1.4 letter of authorization']), 'loa.pdf');
    const upload = `/api/v1/carts/${made.cart}/requests/${made.request}/documents`;
    const up = await callAt(base, 'POST', upload, { form });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    await c('POST', '/api/v1/carts/{cart}/checkout');
    await c('PATCH', '/api/v1/orders/{cart}', 'updateOrder');
    await c('PATCH', '/api/v1/requests/{request}', 'updateRequest');
    await c('POST', '/api/v1/bulk_dip_tasks', 'createBulkDipTask');
    await c('GET', '/api/v1/bulk_dip_tasks/{bulk_dip_task}');
    await c('POST', '/api/v1/call_data_webhooks', 'createCallDataWebhook');
    await c('PATCH', '/api/v1/call_data_webhooks/{call_data_webhook}', 'updateCallDataWebhook');
    await c('POST', '/api/v1/event_subscriptions', 'createEventSubscription');
    await c('PATCH', '/api/v1/event_subscriptions/{event_subscription}', 'updateEventSubscription');
    const osrs = await c('GET', '/api/v1/osr/overwrite_requests');
    await c('POST', `/api/v1/osr/overwrite_requests/${osrs.body.results[0].data.id}/review`, 'reviewOverwriteRequest');
    await c('GET', '/api/v1/campaigns');
    await c('DELETE', '/api/v1/event_subscriptions/{event_subscription}');
    await c('DELETE', '/api/v1/api_keys/{api_key}');
    // a call the real service refuses is recorded with its status
    expect((await callAt(base, 'GET', '/api/v1/carts/01KEB0R5R0ZZZZZZZZZZZZZZZZ')).status).toBe(404);
    recorder.write();
    await proxy.close();
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a scenario whose calls use the ids they created, and the records the real service held as fixtures', async () => {
    const source = readFileSync(recorder.scenarioFile, 'utf8');
    expect(source).toContain('s.check(a.status === 201, "POST /api/v1/carts answers 201, as the real service did");');
    expect(source).toMatch(/a = await s\.api\("PATCH", `\/api\/v1\/carts\/\$\{ids\.cart_1\}`, \{ body: /);
    expect(source).toMatch(/after=\$\{ids\.cursor_\d\}/);
    expect(source).toContain('"[redacted]"');
    expect(source).not.toContain('whsec-');
    expect(source).toMatch(
      /s\.note\("not replayed: POST \/api\/v1\/carts\/\S+\/documents sent a multipart\/form-data; boundary=\S+ body/,
    );
    const fixtures = loadFixtureFile(recorder.fixtureFile);
    expect(fixtures.numbers?.map((n) => n.data.number)).toEqual(
      expect.arrayContaining(['+16465550200', '+16465550201', '+16465550202']),
    );
    expect(fixtures.overwrite_requests?.length).toBeGreaterThan(0);
  });

  it('replayed on a fresh dipswitch with the recorded fixtures, every call agrees', async () => {
    const replay = await startTestServer({ fixtures: () => fixtureState(loadFixtureFile(recorder.fixtureFile)) });
    try {
      const sc = await new ScenarioCatalog([dir]).load('recorded-session');
      const result = await runScenario(replay.base, sc);
      const failed = result.timeline.filter((e) => e.step === 'FAILED');
      expect(failed, result.error).toEqual([]);
      expect(result.passed).toBe(true);
      expect(result.timeline.filter((e) => e.step === 'ok').length).toBeGreaterThan(35);
    } finally {
      await replay.close();
    }
  });

  it('replayed on the default fixtures, each call that answers differently is reported, and the run goes on', async () => {
    const replay = await startTestServer();
    try {
      const result = await runScenario(replay.base, await new ScenarioCatalog([dir]).load('recorded-session'));
      expect(result.passed).toBe(false);
      const failed = result.timeline.filter((e) => e.step === 'FAILED').map((e) => e.detail);
      expect(failed).toEqual(
        expect.arrayContaining(['GET /api/v1/numbers/+16465550200 answers 200, as the real service did']),
      );
      expect(result.error).toMatch(/^\d+ check\(s\) failed, the first: /);
      expect(result.timeline.at(-1)?.detail).toContain('/api/v1/carts/01KEB0R5R0ZZZZZZZZZZZZZZZZ answers 404');
    } finally {
      await replay.close();
    }
  });

  it('dipswitch scenario replays it with --fixtures: exit 0; a fixture file the contract refuses: exit 2', async () => {
    const run = await runCliAsync([
      'scenario',
      'recorded-session',
      '--scenarios',
      dir,
      '--fixtures',
      recorder.fixtureFile,
    ]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASSED {2}recorded-session/);
    const bad = await runCliAsync([
      'scenario',
      'recorded-session',
      '--scenarios',
      dir,
      '--fixtures',
      recorder.scenarioFile,
    ]);
    expect(bad.status).toBe(2);
    const alone = await runCliAsync(['proxy', '--upstream', 'http://127.0.0.1:9', '--record-fixtures']);
    expect([alone.status, alone.stderr]).toEqual([2, expect.stringContaining('--record-fixtures needs --record DIR')]);
  });
});
