/**
 * Coverage of the contract by a client's suite, per account: operations and the answers seen,
 * deliveries and how receivers answered, faults fired; `dipswitch coverage` as a CI gate and report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelope, useReceiver, useServer } from '../support/helpers.js';
import { runCliAsync } from '../support/cli_process.js';

describe('coverage', () => {
  const server = useServer();
  const receiver = useReceiver();

  it("lists each operation's documented answers seen, the deliveries sent and how they were answered, the faults fired", async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    const key = box.keys.admin;
    await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'a' }) });
    await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'a' }) });
    await server().call('POST', '/__sim/faults', {
      key,
      body: { match: { operation_id: 'listCarts' }, effect: { status: 503 }, times: 1 },
    });
    await server().call('GET', '/api/v1/carts', { key });
    await server().call('POST', '/api/v1/event_subscriptions', {
      key,
      body: envelope('event_subscription', {
        name: 'e',
        protocol: 'HTTP',
        data: `${receiver().url}/ev`,
        topics: ['DID'],
      }),
    });
    await server().call('PATCH', `/api/v1/numbers/${box.numbers[0]}`, {
      key,
      body: envelope('did', { description: 'x' }),
    });
    await server().settle(key);
    // Demo's calls are not the sandbox's
    await server().call('GET', '/api/v1/users');
    const c = (await server().call('GET', '/__sim/coverage', { key })).body;
    const createCart = c.operations.find((o: { operation_id: string }) => o.operation_id === 'createCart');
    expect(createCart.calls).toBe(2);
    expect(createCart.answers).toEqual(
      expect.arrayContaining([
        { status: 201, documented: true, seen: 1 },
        { status: 422, documented: true, seen: 1 },
      ]),
    );
    const listCarts = c.operations.find((o: { operation_id: string }) => o.operation_id === 'listCarts');
    expect(listCarts.answers).toContainEqual({ status: 503, documented: false, seen: 1 });
    expect(c.operations.find((o: { operation_id: string }) => o.operation_id === 'listUsers').calls).toBe(0);
    expect(c.deliveries.events.find((e: { kind: string }) => e.kind === 'did.updated')).toEqual({
      kind: 'did.updated',
      delivered: 1,
      answers: { '200': 1 },
    });
    expect(c.faults).toEqual([{ effect: 'status 503', fired: 1 }]);
    expect(c.summary.operations_called).toBe(4);
  });

  it('dipswitch coverage --fail-under exits 1 while no error answer was seen, 0 once one was; JUnit a schema accepts', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    const key = box.keys.admin;
    await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'only' }) });
    const cli = (...args: string[]) => runCliAsync(['coverage', '--url', server().base, '--key', key, ...args]);
    const before = (await server().call('GET', '/__sim/coverage', { key })).body.summary;
    const gate = Math.ceil(((before.answers_seen + 1) / before.answers) * 100);
    const failing = await cli('--fail-under', String(gate));
    expect(failing.status, failing.stderr).toBe(1);
    expect(failing.stderr).toContain(`is under --fail-under ${gate}%`);
    expect(failing.stdout).toMatch(/createCart +201 ✔/);
    await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'only' }) });
    const passing = await cli('--fail-under', String(gate));
    expect(passing.status, passing.stderr).toBe(0);

    const junit = await cli('--format', 'junit');
    expect(junit.status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-junit-'));
    writeFileSync(join(dir, 'coverage.xml'), junit.stdout);
    const checked = spawnSync(
      'xmllint',
      ['--noout', '--schema', join(import.meta.dirname, '..', 'support', 'junit.xsd'), join(dir, 'coverage.xml')],
      {
        encoding: 'utf8',
      },
    );
    expect(checked.status, checked.stderr).toBe(0);
    expect(junit.stdout).toContain('<testcase classname="dipswitch.operations" name="createCart 201" time="0"/>');
    const markdown = await cli('--format', 'markdown');
    expect(markdown.stdout).toContain('| operation | createCart |');
  });
});
