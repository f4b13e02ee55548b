/**
 * The clients in other languages kept in step with the control API: every operationId of contract/sim.yaml
 * has a client method or is omitted with the reason (its `x-client: { omit }`), and every operation a client
 * names exists. Read from the clients themselves: the Python package's own table (filled by its `@calls`
 * marks, read by importing it) and the Go package's source read by Go's parser (its operations test); the
 * types and operation tables they use are generated from the contract and checked current here.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract, projectRoot } from '../../src/contract.js';

/** The operations no client offers, with the reason (contract/sim.yaml `x-client: { omit }`). */
const omissions: Record<string, string> = {};
for (const item of Object.values(
  (loadContract('sim').document as { paths: Record<string, Record<string, any>> }).paths,
))
  for (const op of Object.values(item))
    if (op?.['x-client']?.omit) omissions[op.operationId as string] = op['x-client'].omit as string;
const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', ''], { encoding: 'utf8' }).status === 0);
const go = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
if (process.env.CI && (!python || !go)) throw new Error('CI checks both clients: install python3 and golang');

/** The operations the Python client calls, by method, as the imported package says. */
function pythonOperations(): Map<string, string> {
  const run = spawnSync(python!, ['-c', 'import dipswitch, json; print(json.dumps(dipswitch.OPERATIONS))'], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: join(projectRoot, 'clients', 'python', 'src'), PYTHONDONTWRITEBYTECODE: '1' },
  });
  expect(run.status, run.stderr).toBe(0);
  return new Map(Object.entries(JSON.parse(run.stdout) as Record<string, string>).map(([m, id]) => [id, m]));
}

/** The operations the Go client calls, as its own operations test (Go's parser over its source) prints them. */
function goOperations(): Map<string, string> {
  const run = spawnSync('go', ['test', '-count=1', '-run', 'TestEveryOperationHasAMethodOrAReason', '-v', '.'], {
    cwd: join(projectRoot, 'clients', 'go'),
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off' },
  });
  const said = /operations used: (\[.*\])/.exec(run.stdout)?.[1];
  expect(said, `${run.stdout}${run.stderr}`).toBeDefined();
  return new Map((JSON.parse(said!) as string[]).map((id) => [id, id]));
}

/** The operations of the contract that neither a client method nor an omission covers. */
export const uncovered = (contract: string[], client: Map<string, string>): string[] =>
  contract.filter((id) => !client.has(id) && !(id in omissions));

// a test waits as long as its `go test` may run (a cold cache builds the standard library first)
describe('the clients and the control API', { timeout: 300_000 }, () => {
  const contract: string[] = [...loadContract('sim').operations.keys()];

  it("the clients' generated types and operations are what contract/sim.yaml makes", () => {
    const check = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'generate-clients.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(check.status, check.stderr).toBe(0);
  });

  it.skipIf(!python)('every operation has a Python method or a reason, and every method names an operation', () => {
    const ops = pythonOperations();
    expect(uncovered(contract, ops)).toEqual([]);
    expect([...ops.keys()].filter((id) => !contract.includes(id))).toEqual([]);
    for (const [id, why] of Object.entries(omissions)) {
      expect(contract, `${id} is omitted: ${why}`).toContain(id);
      expect(why.length).toBeGreaterThan(10);
    }
    expect(uncovered([...contract, 'simNewControlCall'], ops)).toEqual(['simNewControlCall']);
  });

  it.skipIf(!go)('every operation has a Go method or a reason', () => {
    const ops = goOperations();
    expect(uncovered(contract, ops)).toEqual([]);
    expect([...ops.keys()].filter((id) => !contract.includes(id))).toEqual([]);
    expect(uncovered([...contract, 'simNewControlCall'], ops)).toEqual(['simNewControlCall']);
  });
});
