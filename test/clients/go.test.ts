/**
 * The Go client and its dipswitchtest package (clients/go), run as a Go team runs them: Debian's golang,
 * `go test -race ./...` against a server TestMain starts (the built command), each test's sandbox its
 * own, the run's coverage gated; a failing verify as go test prints it. Outside CI, without Go, skipped
 * saying why.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';

const go = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
if (!go) {
  if (process.env.CI) throw new Error('CI runs the Go client: install golang');
  console.warn('Go client tests skipped: no go');
}

const folder = join(projectRoot, 'clients', 'go');
const command = `${process.execPath} ${join(projectRoot, 'dist', 'src', 'cli', 'main.js')} --memory --port 0 --clock frozen`;

function goTest(args: string[], cwd = folder) {
  return spawnSync('go', ['test', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 600_000,
    env: {
      ...process.env,
      DIPSWITCH_COMMAND: command,
      DIPSWITCH_RUN: '',
      // nothing to download: the module has no requirement outside the standard library
      GOFLAGS: '-mod=mod',
      GOPROXY: 'off',
    },
  });
}

describe.skipIf(!go)('the Go client', () => {
  it('go test -race ./...: sandboxes in parallel tests never see each other; the gate passes over it', () => {
    const run = goTest(['-race', '-count=1', '-v', './...']);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/--- PASS: TestSandboxesInParallelNeverSeeEachOther/);
    expect(run.stdout).toMatch(/dipswitch coverage of run go-test-\w+: .* passes the gate of 1%/);
  });

  it("the example client team's suite (examples/go) passes and its gate", () => {
    const run = goTest(['-count=1', '-v', './...'], join(projectRoot, 'examples', 'go'));
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/--- PASS: TestTwoNumbersOrderedAndWaitedFor/);
    expect(run.stdout).toMatch(/passes the gate of 10%/);
  });

  it('a failing verify fails the test with the near miss field by field', () => {
    const run = goTest(['-count=1', '-tags', 'failing', './examples_failing']);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/--- FAIL: TestCheckoutWasCalled/);
    expect(run.stdout).toContain('/body/data/name: expected "lunch", got "launch"');
  });
});
