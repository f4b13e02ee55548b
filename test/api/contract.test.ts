import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contractDigest, loadContract, projectRoot, readContractDocument } from '../../src/contract.js';
import { handlers } from '../../src/api/index.js';
import { backend } from '../../src/http/backend.js';
import { fixtureProblems, readFixtureFile } from '../../src/store/fixtures.js';
import { useServer } from '../support/helpers.js';

/** Operations whose issue has not landed: they answer 501. Shrinks as each resource is built. */
const STILL_501: string[] = [];

describe('contract', () => {
  const server = useServer();
  const { document, operations } = loadContract();

  it('every operation has a handler, except those still answering 501', () => {
    const missing = [...operations.keys()].filter((id) => !(id in handlers)).sort();
    console.info(`operations still 501 (${missing.length} of ${operations.size}): ${missing.join(', ')}`);
    expect(missing).toEqual(STILL_501);
    for (const id of Object.keys(handlers)) expect(operations.has(id as never), id).toBe(true);
  });

  it('every operation but the contract itself names its scope; every error response its codes', () => {
    for (const op of operations.values()) {
      if (op.operationId === 'getOpenapi') expect(op.scope).toBeNull();
      else expect(op.scope, op.operationId).toMatchObject({ action: expect.any(String), resource: expect.any(String) });
    }
    const responses = (document.components as { responses: Record<string, { 'x-error-codes'?: string[] }> }).responses;
    for (const [name, r] of Object.entries(responses)) expect(r['x-error-codes'], name).toBeDefined();
  });

  it('every fixture record is valid against the contract', () => {
    expect(fixtureProblems(readFixtureFile())).toEqual([]);
    const broken = readFixtureFile() as unknown as Record<
      string,
      { account_id: string; data: Record<string, unknown> }[]
    >;
    broken.numbers![0]!.data.sms_enabled = 'yes';
    broken.users![0]!.account_id = 'nobody';
    expect(fixtureProblems(broken)).toEqual([
      '/users/0/account_id names no account of the file',
      '/numbers/0/data/sms_enabled must be boolean (number)',
    ]);
  });

  it('the fixtures are those interface.md names', () => {
    const f = readFixtureFile();
    expect(f.accounts?.map((a) => [a.id, a.name])).toEqual([
      ['0a0a0a0a-0000-4000-8000-000000000001', 'Demo'],
      ['0a0a0a0a-0000-4000-8000-000000000002', 'Partner'],
    ]);
    expect(f.api_keys.map((k) => k.data.key)).toEqual([
      'demo-admin-key',
      'demo-operator-key',
      'demo-readonly-key',
      'demo-standard-key',
      'partner-admin-key',
    ]);
    const demoNumbers = f.numbers?.filter((n) => n.account_id === f.accounts?.[0]?.id).map((n) => n.data.number);
    expect(demoNumbers).toEqual(Array.from({ length: 10 }, (_, i) => `+131255501${String(i).padStart(2, '0')}`));
    const partnerNumbers = f.numbers?.filter((n) => n.account_id === f.accounts?.[1]?.id).map((n) => n.data.number);
    expect(partnerNumbers).toEqual(Array.from({ length: 5 }, (_, i) => `+131255502${String(i).padStart(2, '0')}`));
    expect(f.campaigns?.[0]?.data).toMatchObject({ shared: 'OWNED', tcr_status: 'ACTIVE' });
    expect(f.shared_resource_groups?.map((g) => g.account_id)).toEqual([f.accounts?.[0]?.id, f.accounts?.[1]?.id]);
  });

  it.each([
    ['openapi', 'api'],
    ['sim', 'sim'],
  ])('src/generated/%s types are what `npm run generate` makes of the contract', async (contract, out) => {
    const ast = await openapiTS(parse(readFileSync(join(projectRoot, 'contract', `${contract}.yaml`), 'utf8')), {
      defaultNonNullable: false,
      immutable: true,
    });
    const fresh = astToString(ast);
    const committed = readFileSync(join(projectRoot, 'src', 'generated', `${out}.ts`), 'utf8');
    const body = (s: string) => s.slice(s.indexOf('export interface paths')).trim();
    expect(body(committed) === body(fresh), `src/generated/${out}.ts is stale: run npm run generate`).toBe(true);
  });

  it('the contract is served at /api/v1/openapi as JSON, and as YAML with format=yaml, without a key', async () => {
    const json = await server().call('GET', '/api/v1/openapi', { key: null });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.body.openapi).toBe('3.1.0');
    expect(Object.keys(json.body.paths)).toContain('/api/v1/api_keys');
    const yaml = await server().call('GET', '/api/v1/openapi?format=yaml', { key: null });
    expect(yaml.headers.get('content-type')).toContain('application/yaml');
    expect(parse(yaml.body as string)).toEqual(json.body);
  });

  it("the built JSON copy is read only when made from the YAML as it is (its digest), whatever the files' times", () => {
    const root = mkdtempSync(join(tmpdir(), 'dipswitch-contract-'));
    mkdirSync(join(root, 'contract'));
    mkdirSync(join(root, 'dist', 'contract'), { recursive: true });
    const yaml = 'openapi: 3.1.0\ninfo: { title: from the YAML }\n';
    writeFileSync(join(root, 'contract', 'openapi.yaml'), yaml);
    writeFileSync(join(root, 'dist', 'contract', 'openapi.json'), JSON.stringify({ info: { title: 'built' } }));
    writeFileSync(join(root, 'dist', 'contract', 'openapi.sha256'), contractDigest(yaml));
    // the copy is older than the YAML (as files unpacked in any order may be): still read
    utimesSync(join(root, 'dist', 'contract', 'openapi.json'), 1, 1);
    expect(readContractDocument('openapi', root)).toEqual({ info: { title: 'built' } });
    // the YAML changed since the build: the YAML is read
    writeFileSync(join(root, 'contract', 'openapi.yaml'), yaml.replace('from the YAML', 'edited'));
    expect(readContractDocument('openapi', root)).toEqual({ openapi: '3.1.0', info: { title: 'edited' } });
    rmSync(root, { recursive: true, force: true });
  });

  it('the build leaves the digest of each contract beside its JSON copy', () => {
    for (const name of ['openapi', 'sim'] as const)
      expect(readFileSync(join(projectRoot, 'dist', 'contract', `${name}.sha256`), 'utf8')).toBe(
        contractDigest(readFileSync(join(projectRoot, 'contract', `${name}.yaml`), 'utf8')),
      );
  });

  it('a schema two operations share is compiled once: the same validator answers for both', async () => {
    const { validator } = await backend('openapi');
    const cart = validator.getStatusBasedResponseValidatorForOperation('getCart');
    const order = validator.getStatusBasedResponseValidatorForOperation('getOrder');
    expect(cart?.['404']).toBeTypeOf('function');
    expect(cart?.['404']).toBe(order?.['404']);
    expect(cart?.['200']).not.toBe(order?.['200']);
    // still a validator of its own schema
    expect(order?.['200']?.({ id: 1 })).toBe(false);
  });
});
