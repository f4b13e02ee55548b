/**
 * The Python client and its pytest plugin (clients/python), run as a Python team runs them: Debian's
 * python3 with pytest and pytest-xdist, `pytest -n 4` against a server the plugin starts (the built
 * command), each test's sandbox its own; the coverage gate in pytest's summary; a failing verify as
 * pytest prints it. Outside CI, without Debian's pytest and pytest-xdist, skipped saying why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';

const python = ['/usr/bin/python3', 'python3'].find(
  (p) => spawnSync(p, ['-c', 'import pytest, xdist'], { encoding: 'utf8' }).status === 0,
);
if (!python) {
  if (process.env.CI) throw new Error('CI runs the Python client: install python3-pytest and python3-pytest-xdist');
  console.warn('Python client tests skipped: no python3 with pytest and pytest-xdist');
}

const folder = join(projectRoot, 'clients', 'python');
const command = `${process.execPath} ${join(projectRoot, 'dist', 'src', 'cli', 'main.js')} --memory --port 0 --clock frozen`;

/** pytest with the plugin and the built command, in `cwd` (the client's folder by default). */
function pytest(args: string[], cwd = folder) {
  const argv = ['-m', 'pytest', '-p', 'dipswitch.pytest_plugin', '--dipswitch-command', command, ...args];
  return spawnSync(python!, argv, {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: {
      ...process.env,
      PYTHONPATH: `${join(folder, 'src')}:${cwd}`,
      PYTHONDONTWRITEBYTECODE: '1',
      DIPSWITCH_RUN: '',
    },
  });
}

describe.skipIf(!python)('the Python client', () => {
  it('pytest -n 4: every test its own sandbox (faults and resets in every worker); the gate passes over it', () => {
    expect(existsSync(join(folder, 'src', 'dipswitch', '__init__.py'))).toBe(true);
    const run = pytest(['-n', '4', '-q', '--dipswitch-fail-under', '1', 'tests']);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/11 passed/);
    expect(run.stdout).toMatch(/dipswitch coverage[\s\S]*run pytest-\w+: .* passes the gate of 1%/);
  });

  it('the coverage gate fails the session under it, said in the summary', () => {
    const run = pytest([
      '-n',
      '2',
      '-q',
      '--dipswitch-fail-under',
      '100',
      'tests/test_sandboxes.py::test_a_typo_is_refused_with_the_nearest_name',
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/1 passed/);
    expect(run.stdout).toMatch(/FAILS the gate of 100%/);
  });

  it("the example client team's suite (examples/python) passes under pytest -n 4 and its gate", () => {
    const run = pytest(['-n', '4', '-q', '--dipswitch-fail-under', '10', '.'], join(projectRoot, 'examples', 'python'));
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/3 passed/);
    expect(run.stdout).toMatch(/passes the gate of 10%/);
  });

  it('a failing verify is a test failure showing the near miss field by field', () => {
    const run = pytest(['-q', 'examples_failing']);
    expect(run.status).toBe(1);
    // the test's own line, then the expectation and the near miss (the client's frames hidden)
    expect(run.stdout).toMatch(/^>\s+dipswitch_sandbox\.requests\.verify\(/m);
    expect(run.stdout).toMatch(/^E\s+dipswitch\.VerificationError: Expected exactly 1 matching calls, found 0\.$/m);
    expect(run.stdout).toContain('/body/data/name: expected "lunch", got "launch"');
  });
});
