/**
 * The clients in other languages kept in step with the control API: every operationId of
 * contract/sim.yaml has a client method (clients/python: OPERATIONS; clients/go: Operations) or is listed in
 * clients/omissions.json with the reason, and every operation a client names exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract, projectRoot } from '../../src/contract.js';

const omissions = JSON.parse(readFileSync(join(projectRoot, 'clients', 'omissions.json'), 'utf8')) as Record<
  string,
  string
>;

/** The operations a client's source names, from its table of methods. */
function pythonOperations(): Map<string, string> {
  const text = readFileSync(join(projectRoot, 'clients', 'python', 'src', 'dipswitch', '__init__.py'), 'utf8');
  const table = /OPERATIONS: Dict\[str, str\] = \{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
  return new Map([...table.matchAll(/"([\w.]+)": "(\w+)"/g)].map((m) => [m[2]!, m[1]!]));
}

/** The operations the Go client names, from its table of methods. */
function goOperations(): Map<string, string> {
  const text = readFileSync(join(projectRoot, 'clients', 'go', 'dipswitch.go'), 'utf8');
  const table = /var Operations = map\[string\]string\{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
  return new Map([...table.matchAll(/"([\w.]+)": "(\w+)"/g)].map((m) => [m[2]!, m[1]!]));
}

/** The operations of the contract that neither a client method nor an omission covers. */
export const uncovered = (contract: string[], client: Map<string, string>): string[] =>
  contract.filter((id) => !client.has(id) && !(id in omissions));

describe('the clients and the control API', () => {
  const contract: string[] = [...loadContract('sim').operations.keys()];

  it('every operation has a Python method or a reason, and every method names an operation', () => {
    const python = pythonOperations();
    expect(uncovered(contract, python)).toEqual([]);
    expect([...python.keys()].filter((id) => !contract.includes(id))).toEqual([]);
    for (const [id, why] of Object.entries(omissions)) {
      expect(contract, `${id} is omitted: ${why}`).toContain(id);
      expect(why.length).toBeGreaterThan(10);
    }
  });

  it('every operation has a Go method or a reason, and every method names an operation', () => {
    const goOps = goOperations();
    expect(uncovered(contract, goOps)).toEqual([]);
    expect([...goOps.keys()].filter((id) => !contract.includes(id))).toEqual([]);
  });

  it('an operation added to the contract without a method fails it, named', () => {
    expect(uncovered([...contract, 'simNewControlCall'], pythonOperations())).toEqual(['simNewControlCall']);
    expect(uncovered([...contract, 'simNewControlCall'], goOperations())).toEqual(['simNewControlCall']);
  });
});
