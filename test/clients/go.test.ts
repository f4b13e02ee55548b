/**
 * The Go client and its dipswitchtest package (clients/go), run as a Go team runs them: Debian's golang,
 * `go test -race ./...` against a server TestMain starts (a command), each test's sandbox its own, the
 * run's coverage gated from the environment; a failing verify as go test prints it. Outside CI, without Go,
 * skipped saying why.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_')));

function goTest(args: string[], cwd = folder, env: Record<string, string> = { DIPSWITCH_COMMAND: command }) {
  return spawnSync('go', ['test', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 600_000,
    // nothing to download: the module has no requirement outside the standard library
    env: { ...clean, GOFLAGS: '-mod=mod', GOPROXY: 'off', ...env },
  });
}

// a test waits as long as its `go test` may run: the first -race build of a cold cache is minutes on a busy machine
describe.skipIf(!go)('the Go client', { timeout: 600_000 }, () => {
  it('go test -race ./...: sandboxes in parallel tests never see each other; the gate passes over it', () => {
    const run = goTest(['-race', '-count=1', '-v', './...']);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/--- PASS: TestSandboxesInParallelNeverSeeEachOther/);
    expect(run.stdout).toMatch(/dipswitch coverage of run go-test-\w+: .* passes the gate of 1%/);
  });

  it("the example client team's suite (examples/go) passes, its gate set in the environment alone", () => {
    const examples = join(projectRoot, 'examples', 'go');
    const run = goTest(['-race', '-count=1', '-v', './...'], examples, {
      DIPSWITCH_COMMAND: command,
      DIPSWITCH_FAIL_UNDER: '10',
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/--- PASS: TestTwoNumbersOrderedAndWaitedFor/);
    expect(run.stdout).toMatch(/passes the gate of 10%/);
    // one test alone passes without the gate, and a run of none fails the gate in one line
    expect(goTest(['-count=1', '-run', 'TestListingSurvivesA503', './...'], examples).status).toBe(0);
    const none = goTest(['-count=1', '-run', 'NoSuchTest', './...'], examples, {
      DIPSWITCH_COMMAND: command,
      DIPSWITCH_FAIL_UNDER: '10',
    });
    expect(none.status).toBe(1);
    expect(none.stdout).toMatch(/the run made no sandbox: FAILS the gate of 10%/);
  });

  it("the README's example runs as pasted: a signed SMS at the test's receiver, a fault, a verify", () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-go-readme-'));
    const readme = readFileSync(join(folder, 'README.md'), 'utf8');
    const files = [...readme.matchAll(/```go file=(\S+)\n([\s\S]*?)```/g)];
    expect(files.map((f) => f[1])).toEqual(['sms_test.go']);
    for (const [, file, text] of files) writeFileSync(join(dir, file!), text!);
    writeFileSync(
      join(dir, 'go.mod'),
      `module example.test/sms\n\ngo 1.19\n\nrequire dipswitch.test/go v0.0.0\n\nreplace dipswitch.test/go => ${folder}\n`,
    );
    const run = goTest(['-count=1', '-v', './...'], dir);
    rmSync(dir, { recursive: true, force: true });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/--- PASS: TestAnSMSReachesOurWebhookSigned/);
    expect(run.stdout).toMatch(/--- PASS: TestAFaultAndAVerify/);
  });

  it('a gate outside 0-100 is refused before any test runs; with nothing to start, one line naming the ways', () => {
    const examples = join(projectRoot, 'examples', 'go');
    const wide = goTest(['-count=1', './...'], examples, { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '150' });
    expect(wide.status).not.toBe(0);
    expect(wide.stdout + wide.stderr).toMatch(/a coverage gate is a percentage from 0 to 100, not 150/);
    const nowhere = goTest(['-count=1', './...'], examples, {});
    expect(nowhere.status).not.toBe(0);
    expect(nowhere.stdout + nowhere.stderr).toMatch(/dipswitch: no server to reach or start: set DIPSWITCH_URL/);
    const failing = goTest(['-count=1', './...'], examples, {
      DIPSWITCH_COMMAND: `${process.execPath} -e console.error('boom:port-taken');process.exit(3)`,
    });
    expect(failing.stdout + failing.stderr).toContain('boom:port-taken');
  });

  it('a failing verify fails the test with the near miss field by field', () => {
    const run = goTest(['-count=1', '-tags', 'failing', './examples_failing']);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/--- FAIL: TestCheckoutWasCalled/);
    expect(run.stdout).toMatch(/near_miss_test\.go:\d+: Expected exactly 1 matching calls, found 0\./);
    expect(run.stdout).toContain('/body/data/name: expected "lunch", got "launch"');
  });
});
