import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { parityMarkdown, type ParityReport } from '../../src/trust/parity.js';
import { Shadow } from '../../src/trust/shadow.js';
import { runCliAsync, startCli } from '../support/cli_process.js';
import { callAt, envelope, startTestServer, type TestServer, startTestProxy } from '../support/helpers.js';

/**
 * The "real service" is a second dipswitch that differs from the shadow in two known ways, each a
 * documented decision changed by a fault: a DID destination's default `wait_time` (20, not 30), and the
 * status of an invalid id of an operation without a 422 (422, not 404).
 */
async function changeTwoDecisions(upstream: TestServer): Promise<void> {
  const made = await upstream.call('POST', '/api/v1/numbers/+13125550101/destinations', {
    body: envelope('number_destination', { type: 'PSTN', destination: '+13125559876' }),
  });
  await upstream.call('POST', '/__sim/faults', {
    key: null,
    body: {
      match: { operation_id: 'createDestination' },
      effect: { status: 201, body: { ...made.body, data: { ...made.body.data, wait_time: 20 } } },
      times: 1,
    },
  });
  const refused = await upstream.call('GET', '/api/v1/switches/not-a-switch');
  expect(refused.status).toBe(404);
  await upstream.call('POST', '/__sim/faults', {
    key: null,
    body: {
      match: { method: 'GET', path: '/api/v1/switches/not-a-switch' },
      effect: { status: 422, body: refused.body },
    },
  });
}

describe('dipswitch proxy --shadow', () => {
  let upstream: TestServer;
  let shadow: Shadow;
  let base: string;
  let close: () => Promise<void>;
  const answers: Record<string, { status: number; body: any }> = {};

  beforeAll(async () => {
    upstream = await startTestServer();
    await changeTwoDecisions(upstream);
    shadow = await Shadow.start({ logger: silentLogger, seed: 7 });
    const proxy = await startTestProxy(upstream.base, { shadow });
    close = proxy.close;
    base = proxy.base;
    const made: Record<string, string> = {};
    const c = async (name: string, method: string, path: string, body?: unknown) => {
      const res = await callAt(
        base,
        method,
        path.replace(/\{(\w+)\}/g, (_, k: string) => made[k] ?? k),
        { body },
      );
      if (method === 'POST' && res.body?.data?.id) made[res.body.type] ??= res.body.data.id;
      if (res.body?.page_info?.last) made.cursor = res.body.page_info.last;
      answers[name] = res;
    };
    await c('numbers', 'GET', '/api/v1/numbers?first=4');
    await c('numbers after', 'GET', '/api/v1/numbers?first=4&after={cursor}');
    await c('number', 'GET', '/api/v1/numbers/+13125550100');
    await c('cart', 'POST', '/api/v1/carts', envelope('cart', { name: 'spring' }));
    await c('cart patched', 'PATCH', '/api/v1/carts/{cart}', envelope('cart', { notes: 'for April' }));
    await c(
      'cart request',
      'POST',
      '/api/v1/carts/{cart}/requests',
      envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550104'] } }),
    );
    await c('cart requests', 'GET', '/api/v1/carts/{cart}/requests');
    await c('checkout', 'POST', '/api/v1/carts/{cart}/checkout');
    await c('order', 'GET', '/api/v1/orders/{cart}');
    await c(
      'switch',
      'POST',
      '/api/v1/switches',
      envelope('switch', {
        name: 'voice',
        voice_enabled: true,
        voice_protocol: 'SIP',
        voice_data: 'sip:pbx@example.com',
      }),
    );
    await c('switch patched', 'PATCH', '/api/v1/switches/{switch}', envelope('switch', { notes: 'main' }));
    await c('no switch', 'GET', '/api/v1/switches/not-a-switch');
    await c(
      'destination',
      'POST',
      '/api/v1/numbers/+13125550101/destinations',
      envelope('number_destination', { type: 'PSTN', destination: '+13125559876' }),
    );
    await c('api key', 'POST', '/api/v1/api_keys', envelope('api_key', { name: 'nightly' }));
    await c('api key gone', 'DELETE', '/api/v1/api_keys/{api_key}');
    await c('osrs', 'GET', '/api/v1/osr/overwrite_requests');
    // the real service refuses the client's key: the shadow (Demo's admin) has no answer to compare
    answers['bad key'] = await callAt(base, 'GET', '/api/v1/numbers', { key: 'not-a-key' });
    await shadow.idle();
  });
  afterAll(async () => {
    await close();
    await shadow.close();
    await upstream.close();
  });

  it("the client gets the real service's answers, unchanged", () => {
    expect(answers.destination?.body.data.wait_time).toBe(20);
    expect(answers['no switch']?.status).toBe(422);
    expect(answers['cart patched']?.status).toBe(200);
  });

  it('the report names exactly the two differences, each with its documented decision; everything else agrees', async () => {
    const report = (await fetch(`${base}/__proxy/parity`).then((r) => r.json())) as ParityReport;
    const differences = report.operations.flatMap((o) =>
      o.differences.map((d) => ({ operation: o.operation_id, ...d })),
    );
    expect(differences).toEqual([
      {
        operation: 'createDestination',
        field: '/data/wait_time',
        real: 20,
        dipswitch: 30,
        times: 1,
        decision: 'docs/decisions.md: DID destinations',
      },
      {
        operation: 'getSwitch',
        field: 'status',
        real: 422,
        dipswitch: 404,
        times: 1,
        decision: 'docs/decisions.md: Status of `invalid_parameter`',
      },
    ]);
    expect(answers['bad key']?.status).toBe(403);
    expect(report.not_compared).toBe(1);
    const calls = report.operations.reduce((n, o) => n + o.calls, 0);
    expect(calls).toBe(Object.keys(answers).length - 1);
    expect(report.operations.find((o) => o.operation_id === 'updateCart')).toMatchObject({
      calls: 1,
      agreeing: 1,
      differing: 0,
    });
    expect(report.operations.find((o) => o.operation_id === 'listNumbers')).toMatchObject({ calls: 2, agreeing: 2 });
    const markdown = parityMarkdown(report);
    expect(markdown).toContain(
      '| createDestination | /data/wait_time | `20` | `30` | 1 | docs/decisions.md: DID destinations |',
    );
    expect(markdown).toContain('| getSwitch | 1 | 0 | 1 |');
  });

  it('--parity-report writes FILE.md and FILE.json when the proxy stops; without --shadow it exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-parity-'));
    try {
      const proxy = await startCli(
        ['proxy', '--upstream', upstream.base, '--port', '0', '--shadow', '--parity-report', join(dir, 'parity.md')],
        { ready: /validating proxy on (http:\/\/[\d.]+:\d+)/ },
      );
      expect((await callAt(proxy.base, 'GET', '/api/v1/numbers/+13125550100')).status).toBe(200);
      await proxy.stop();
      expect(existsSync(join(dir, 'parity.md'))).toBe(true);
      const json = JSON.parse(readFileSync(join(dir, 'parity.json'), 'utf8')) as ParityReport;
      expect(json.operations).toEqual([expect.objectContaining({ operation_id: 'getNumber', calls: 1, agreeing: 1 })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const alone = await runCliAsync(['proxy', '--upstream', upstream.base, '--parity-report', 'x.md']);
    expect([alone.status, alone.stderr]).toEqual([2, expect.stringContaining('--parity-report needs --shadow')]);
  });
});
