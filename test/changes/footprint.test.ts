/**
 * A suite's footprint (GET /__sim/footprint, `dipswitch footprint`) crossed with the provider's next
 * contract (`dipswitch diff --footprint`): a change on what the suite used breaks it, the same change
 * elsewhere does not; and `--against` the contract a server serves on loopback.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { componentValidator } from '../../src/contract.js';
import { envelope, numberEvents, useReceiver, useServer } from '../support/helpers.js';
import { runCliAsync } from '../support/cli_process.js';

type Doc = any;
const original = parse(readFileSync('contract/openapi.yaml', 'utf8')) as Doc;

describe('a footprint crossed with the next contract', () => {
  const server = useServer();
  const receiver = useReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-footprint-'));
  const contract = (name: string, edit: (d: Doc) => void) => {
    const d = structuredClone(original);
    edit(d);
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify(d));
    return file;
  };
  const diff = (...args: string[]) => runCliAsync(['diff', 'contract/openapi.yaml', ...args]);

  /** A small suite in a sandbox of run `run`: carts made, read and listed, an event received; the sandbox then removed. */
  async function suite(run: string) {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { run } })).body;
    const key = box.keys.admin;
    const cart = (await server().call('POST', '/api/v1/carts', { key, body: envelope('cart', { name: 'launch' }) }))
      .body;
    await server().call('GET', `/api/v1/carts/${cart.data.id}`, { key });
    await server().call('GET', '/api/v1/carts?first=5', { key });
    await numberEvents(server(), box, `${receiver().url}/ev`);
    await server().call('DELETE', `/__sim/accounts/${box.id}`, { key: null });
  }

  it('says what the calls sent and received, kept past the sandbox, in the schema of the contract', async () => {
    await suite('fp-a');
    const res = await server().call('GET', '/__sim/footprint?run=fp-a', { key: null });
    expect(res.status).toBe(200);
    const fp = res.body;
    expect(componentValidator('footprint', 'sim')(fp)).toBe(true);
    expect(fp.contract.title).toBe(original.info.title);
    const op = (id: string) => fp.operations.find((o: { operation_id: string }) => o.operation_id === id);
    expect(op('createCart')).toMatchObject({ method: 'POST', path: '/api/v1/carts', calls: 1, statuses: ['201'] });
    expect(op('createCart').request_fields).toEqual(expect.arrayContaining(['type', 'data', 'data.name']));
    expect(op('createCart').request_fields).not.toContain('data.notes');
    expect(op('createCart').response_fields['201']).toEqual(
      expect.arrayContaining(['data.id', 'data.name', 'data.notes']),
    );
    expect(op('listCarts').query_parameters).toEqual(['first']);
    expect(op('createEventSubscription').values).toMatchObject({ 'data.protocol': ['HTTP'], 'data.topics[]': ['DID'] });
    expect(op('listUsers')).toBeUndefined();
    const event = fp.webhooks.find((w: { webhook: string }) => w.webhook === 'event');
    expect(event.delivered).toBe(1);
    expect(event.fields).toEqual(expect.arrayContaining(['data.kind', 'data.occurred_at', 'data.resource.data']));
  });

  it('breaks you on an operation the suite called, not on one it never called; a response enum widened may break you', async () => {
    await suite('fp-b');
    const file = join(dir, 'fp-b.json');
    const saved = await runCliAsync(['footprint', '--url', server().base, '--run', 'fp-b', '--out', file]);
    expect(saved.status, saved.stderr).toBe(0);

    // a request field made required: createCart is called, without it
    const used = contract('notes-required', (d) => d.components.schemas.cart_create.required.push('notes'));
    const breaks = await diff(used, '--footprint', file);
    expect(breaks.status, breaks.stderr).toBe(1);
    expect(breaks.stdout).toMatch(/BREAKS YOU +POST \/api\/v1\/carts \(createCart\): `data\.notes` became required/);
    expect(breaks.stdout).toContain('createCart called 1 time, none sending `data.notes`');

    // the same change where the suite never calls: updateCart
    const unused = contract('update-notes-required', (d) => (d.components.schemas.cart_update.required = ['notes']));
    const fine = await diff(unused, '--footprint', file);
    expect(fine.status, fine.stdout).toBe(0);
    expect(fine.stdout).toMatch(
      /NOT USED BY YOU +PATCH \/api\/v1\/carts\/\{id\} \(updateCart\): `data\.notes` became required/,
    );
    expect(fine.stdout).toContain('updateCart never called');
    // without the footprint, every change is the team's
    expect((await diff(unused)).status).toBe(1);

    // a response enumeration widened on a field the suite received
    const widened = contract('protocol-widened', (d) =>
      d.components.schemas.event_subscription_protocol
        ? d.components.schemas.event_subscription_protocol.enum.push('GRPC')
        : d.components.schemas.auth_method.enum.push('DIGEST'),
    );
    const may = await diff(widened, '--footprint', file, '--format', 'json');
    expect(may.status, may.stderr).toBe(0);
    const report = JSON.parse(may.stdout);
    expect(componentValidator('contract_diff', 'sim')(report)).toBe(true);
    const received = report.changes.filter(
      (c: { verdict: string; operation: { operation_id?: string } }) =>
        c.verdict === 'may-break-you' && c.operation.operation_id === 'createEventSubscription',
    );
    expect(received.length).toBeGreaterThan(0);
    expect(received[0].id).toBe('response-property-enum-value-added');
    expect(received[0].why).toMatch(/received with 201/);
    expect((await diff(widened, '--footprint', file, '--fail-on', 'may-break')).status).toBe(1);

    // JUnit: a case per operation used, the broken one failed; GitHub: an error annotation
    const junit = await diff(used, '--footprint', file, '--format', 'junit');
    expect(junit.stdout).toMatch(
      /<testcase classname="dipswitch.contract" name="POST \/api\/v1\/carts \(createCart\)" time="0">\s*<failure/,
    );
    expect(junit.stdout).toMatch(
      /<testcase classname="dipswitch.contract" name="GET \/api\/v1\/carts \(listCarts\)" time="0"\/>/,
    );
    expect(junit.stdout).toContain('failures="1"');
    const gh = await diff(used, '--footprint', file, '--format', 'github');
    expect(gh.stdout).toMatch(
      /^::error file=.*notes-required\.yaml,title=breaks you%3A POST \/api\/v1\/carts \(createCart\)::`data\.notes` became required/m,
    );
    const md = await diff(used, '--footprint', file, '--format', 'markdown');
    expect(md.stdout).toContain('| breaks you | POST /api/v1/carts (createCart) |');
  });

  it('a bound lowered breaks the suite only if it sent a value past it', async () => {
    await suite('fp-c');
    const file = join(dir, 'fp-c.json');
    expect((await runCliAsync(['footprint', '--url', server().base, '--run', 'fp-c', '--out', file])).status).toBe(0);
    expect(
      JSON.parse(readFileSync(file, 'utf8')).operations.find(
        (o: { operation_id: string }) => o.operation_id === 'listCarts',
      ).values,
    ).toEqual({ 'query.first': ['5'] });
    const within = await diff(
      contract('first-10', (d) => (d.components.parameters.first.schema.maximum = 10)),
      '--footprint',
      file,
    );
    expect(within.status, within.stdout).toBe(0);
    expect(within.stdout).toMatch(
      /NOT USED BY YOU +GET \/api\/v1\/carts \(listCarts\): query parameter first: its value: at most 10, was 100/,
    );
    expect(within.stdout).toContain('sent query first only as 5, within 10');
    const past = await diff(
      contract('first-2', (d) => (d.components.parameters.first.schema.maximum = 2)),
      '--footprint',
      file,
    );
    expect(past.status).toBe(1);
    expect(past.stdout).toMatch(/BREAKS YOU +GET \/api\/v1\/carts \(listCarts\)/);
    expect(past.stdout).toContain('sent query first = 5');
  });

  it('refuses a footprint of another contract or a malformed one, in one line with exit 2', async () => {
    const fp = (await server().call('GET', '/__sim/footprint', { key: null })).body;
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...fp, contract: { title: 'Another API', version: '1' } }));
    const wrong = await diff('contract/openapi.yaml', '--footprint', other);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('a footprint of "Another API"');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"operations": 3}');
    const malformed = await diff('contract/openapi.yaml', '--footprint', bad);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('not a footprint');
    const usage = await runCliAsync(['diff', 'contract/openapi.yaml']);
    expect(usage.status).toBe(2);
  });
});

describe('the simulator against the served contract', () => {
  const server = useServer();
  let other: Server | undefined;
  afterEach(() => other?.close());

  /** Serves `body` at /api/v1/openapi on loopback (or never answers, with `hang`). */
  async function serve(body: string | undefined): Promise<string> {
    other = createServer((req, res) => {
      if (body === undefined) return; // never answers
      res.writeHead(req.url === '/api/v1/openapi' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(req.url === '/api/v1/openapi' ? body : '{}');
    });
    await new Promise<void>((r) => other?.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  }

  it('finds nothing against itself; names an operation the provider serves that dipswitch does not simulate', async () => {
    const same = await runCliAsync(['diff', '--against', server().base]);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toContain('No changes');

    const more = structuredClone(original);
    more.paths['/api/v1/numbers/{number_id}/port_out'] = {
      post: { operationId: 'portOutNumber', responses: { '202': { description: 'Accepted.' } } },
    };
    const url = await serve(JSON.stringify(more));
    const drift = await runCliAsync(['diff', '--against', url, '--format', 'json']);
    expect(drift.status, drift.stderr).toBe(0);
    const report = JSON.parse(drift.stdout);
    expect(report.against).toBe(true);
    expect(report.changes).toEqual([
      expect.objectContaining({
        id: 'endpoint-added',
        drift: 'not-simulated',
        operation: expect.objectContaining({ operation_id: 'portOutNumber' }),
      }),
    ]);
    const text = await runCliAsync(['diff', '--against', url]);
    expect(text.stdout).toMatch(
      /NOT SIMULATED BY DIPSWITCH POST \/api\/v1\/numbers\/\{number_id\}\/port_out \(portOutNumber\)/,
    );
  });

  it('gives up on a URL that does not answer within the bound, in one line with exit 2', async () => {
    const url = await serve(undefined);
    const slow = await runCliAsync(['diff', '--against', url, '--timeout-ms', '300']);
    expect(slow.status).toBe(2);
    expect(slow.stderr).toContain('no answer within 300 ms');
  });
});
