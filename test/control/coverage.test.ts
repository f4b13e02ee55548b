/**
 * Coverage of the contract by a client's suite, per account: operations and the answers seen,
 * deliveries and how receivers answered, faults fired; `dipswitch coverage` as a CI gate and report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelope, numberEvents, useReceiver, useServer } from '../support/helpers.js';
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
    await numberEvents(server(), box, `${receiver().url}/ev`);
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

  it('a sandbox that made no call is 0%, never 100%, and --fail-under fails it', async () => {
    // the failing case: "0 of 0 seen, 100%" let an empty suite pass its gate
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    const empty = (await server().call('GET', '/__sim/coverage', { key: box.keys.admin })).body.summary;
    expect(empty).toMatchObject({ operations_called: 0, answers: 0, percent: 0 });
    const gate = await runCliAsync(['coverage', '--url', server().base, '--key', box.keys.admin, '--fail-under', '1']);
    expect(gate.status).toBe(1);
    expect(gate.stderr).toContain('coverage 0% is under --fail-under 1%');
    const zero = await runCliAsync(['coverage', '--url', server().base, '--key', box.keys.admin, '--fail-under', '0']);
    expect(zero.status).toBe(0);
  });

  it("a run's coverage outlives its sandboxes, counts their calls alone, and is one query", async () => {
    const made = async (run: string) =>
      (await server().call('POST', '/__sim/accounts', { key: null, body: { run } })).body;
    const a1 = await made('run-a');
    const a2 = await made('run-a');
    const b = await made('run-b');
    expect(a1.run).toBe('run-a');
    await server().call('POST', '/api/v1/carts', { key: a1.keys.admin, body: envelope('cart', { name: 'a1' }) });
    await server().call('GET', '/api/v1/carts/nope', { key: a2.keys.admin });
    await server().call('GET', '/api/v1/numbers', { key: b.keys.admin });
    // a fault fired in a sandbox of the run, then the sandbox reset: its counts stay
    await server().call('POST', '/__sim/faults', {
      key: a2.keys.admin,
      body: { match: { operation_id: 'listCarts' }, effect: { status: 503 }, times: 1 },
    });
    await server().call('GET', '/api/v1/carts', { key: a2.keys.admin });
    await server().call('POST', '/__sim/reset', { key: a2.keys.admin });
    for (const box of [a1, a2, b]) await server().call('DELETE', `/__sim/accounts/${box.id}`, { key: null });

    const coverageOf = async (query: string) => await server().call('GET', `/__sim/coverage?${query}`, { key: null });
    const runA = (await coverageOf('run=run-a')).body;
    const calls = (c: typeof runA) =>
      Object.fromEntries(
        c.operations
          .filter((o: { calls: number }) => o.calls)
          .map((o: { operation_id: string; calls: number }) => [o.operation_id, o.calls]),
      );
    expect(calls(runA)).toEqual({ createCart: 1, getCart: 1, listCarts: 1 });
    expect(runA.faults).toEqual([{ effect: 'status 503', fired: 1 }]);
    expect(runA.summary.percent).toBeGreaterThan(0);
    expect(calls((await coverageOf('run=run-b')).body)).toEqual({ listNumbers: 1 });
    // still per account on request, and in the server-wide view
    expect(calls((await coverageOf(`account_id=${a1.id}`)).body)).toEqual({ createCart: 1 });
    expect(calls((await coverageOf('')).body)).toMatchObject({
      createCart: 1,
      getCart: 1,
      listCarts: 1,
      listNumbers: 1,
    });
    // a run no sandbox was made for is a typo, not an empty suite
    const unknown = await coverageOf('run=run-c');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source).toEqual({ parameter: 'run' });
    // the CLI gates on the run, its JUnit counts equal to its cases
    const cli = await runCliAsync([
      'coverage',
      '--url',
      server().base,
      '--run',
      'run-a',
      '--format',
      'junit',
      '--fail-under',
      '1',
    ]);
    expect(cli.status, cli.stderr).toBe(0);
    const cases = cli.stdout.match(/<testcase /g)?.length;
    expect(cli.stdout).toContain(`<testsuites name="dipswitch coverage" tests="${cases}"`);
    // unseen answers are skipped, with the reason, while the gate passes
    expect(cli.stdout).not.toContain('<failure');
    expect(cli.stdout).toMatch(/<skipped message="createCart never answered 422 to the client \(the gate passes\)"\/>/);
    const failing = await runCliAsync([
      'coverage',
      '--url',
      server().base,
      '--run',
      'run-a',
      '--format',
      'junit',
      '--fail-under',
      '100',
    ]);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('<failure message="coverage');
    expect(failing.stdout).toContain('<failure message="createCart never answered 422 to the client"');
  });
});
