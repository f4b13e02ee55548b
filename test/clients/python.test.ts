/**
 * The Python client and its pytest plugin (clients/python), run as a Python team runs them: Debian's
 * python3 with pytest and pytest-xdist, `pytest -n 4` against a server the plugin starts (the built
 * command), a running one and a token-guarded one, each test's sandbox its own; the coverage gate in
 * pytest's summary; a failing verify as pytest prints it; the package installed in a fresh venv, where it
 * changes nothing of a suite that asks for no dipswitch fixture. Outside CI, without Debian's pytest and
 * pytest-xdist, skipped saying why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';

const python = ['/usr/bin/python3', 'python3'].find(
  (p) => spawnSync(p, ['-c', 'import pytest, xdist, venv, setuptools'], { encoding: 'utf8' }).status === 0,
);
if (!python) {
  if (process.env.CI)
    throw new Error('CI runs the Python client: install python3-pytest, python3-pytest-xdist, python3-venv');
  console.warn('Python client tests skipped: no python3 with pytest, pytest-xdist, venv and setuptools');
}

const folder = join(projectRoot, 'clients', 'python');
const main = join(projectRoot, 'dist', 'src', 'cli', 'main.js');
const command = `${process.execPath} ${main} --memory --port 0 --clock frozen`;
/** The environment a test begins with: no setting of dipswitch's from the machine's. */
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_')));
const scratch: string[] = [];
const scratchDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `dipswitch-py-${name}-`));
  scratch.push(d);
  return d;
};
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** The temporary folder of every pytest this file runs (TMPDIR): its leftovers are looked for there alone. */
const pytestTmp = scratchDir('tmp');

/** pytest with the plugin (by -p, the package on PYTHONPATH) in `cwd` (the client's folder by default). */
function pytest(args: string[], cwd = folder, env: Record<string, string> = {}) {
  return spawnSync(python!, ['-m', 'pytest', '-p', 'dipswitch.pytest_plugin', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: {
      ...clean,
      PYTHONPATH: `${join(folder, 'src')}:${cwd}`,
      PYTHONDONTWRITEBYTECODE: '1',
      TMPDIR: pytestTmp,
      ...env,
    },
  });
}
const withCommand = (args: string[]) => ['--dipswitch-command', command, ...args];

/** The servers `running` started: each stopped once the file ends. */
const runningServers: ChildProcess[] = [];
afterAll(() => {
  for (const child of runningServers) child.kill('SIGTERM');
});

/** A dipswitch of the test's own, running until the file ends: its URL. */
async function running(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [main, '--memory', '--port', '0', '--clock', 'frozen'], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runningServers.push(child);
  let said = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      said += d;
      const m = /serving (http:\/\/[^\s"/]+)\/api\/v1/.exec(said);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`dipswitch exited ${code}: ${said}`)));
  });
}

const leftover = () => readdirSync(pytestTmp).filter((n) => n.startsWith('dipswitch-pytest-'));

// a test waits as long as the processes it runs may (a strict mypy of a cold cache, pip, pytest -n 4)
describe.skipIf(!python)('the Python client', { timeout: 300_000 }, () => {
  it('pytest -n 4: every test its own sandbox (faults and resets in every worker); the gate passes over it', () => {
    expect(existsSync(join(folder, 'src', 'dipswitch', 'py.typed'))).toBe(true);
    const run = pytest(withCommand(['-n', '4', '-q', '--dipswitch-fail-under', '1', 'tests']));
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/21 passed/);
    expect(run.stdout).toMatch(/dipswitch coverage[\s\S]*run pytest-\w+: .* passes the gate of 1%/);
  });

  it('the coverage gate fails the session under it, said in the summary; from the environment too', () => {
    const one = 'tests/test_sandboxes.py::test_a_typo_is_refused_with_the_nearest_name';
    const run = pytest(withCommand(['-n', '2', '-q', '--dipswitch-fail-under', '100', one]));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/1 passed/);
    expect(run.stdout).toMatch(/FAILS the gate of 100%/);
    const env = pytest(withCommand(['-q', one]), folder, { DIPSWITCH_FAIL_UNDER: '100' });
    expect(env.status).toBe(1);
    expect(env.stdout).toMatch(/FAILS the gate of 100%/);
  });

  it('a gate outside 0-100 is a usage error, before any test runs', () => {
    for (const [args, env] of [
      [['--dipswitch-fail-under', '150'], {}],
      [[], { DIPSWITCH_FAIL_UNDER: '-5' }],
      [[], { DIPSWITCH_FAIL_UNDER: 'most' }],
    ] as const) {
      const run = pytest(withCommand(['-q', ...args, 'tests']), folder, env);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(4);
      expect(run.stderr).toMatch(/a percentage from 0 to 100/);
      expect(run.stdout).not.toMatch(/passed/);
    }
  });

  it('-k selecting nothing: no server, no output; with a gate, one line and a failure, no traceback', () => {
    const quiet = pytest(withCommand(['-q', '-k', 'nothing_is_called_this', 'tests']));
    expect(quiet.status).toBe(5);
    expect(quiet.stdout + quiet.stderr).not.toMatch(/dipswitch|Traceback/);
    const gated = pytest(withCommand(['-q', '-n', '2', '-k', 'nothing_is_called_this', 'tests']), folder, {
      DIPSWITCH_FAIL_UNDER: '10',
    });
    expect(gated.status).not.toBe(0);
    expect(gated.stdout).toMatch(
      /^run pytest-\w+ made no sandbox \(no test asked for dipswitch\): FAILS the gate of 10%$/m,
    );
    expect(gated.stdout + gated.stderr).not.toMatch(/Traceback/);
    expect(leftover()).toEqual([]);
  });

  it("the README's example runs as pasted: a signed SMS at the test's receiver, a fault, a verify; mypy --strict takes it", () => {
    const dir = scratchDir('readme');
    const readme = readFileSync(join(folder, 'README.md'), 'utf8');
    const files = [...readme.matchAll(/```python file=(\S+)\n([\s\S]*?)```/g)];
    expect(files.map((f) => f[1])).toEqual(['test_sms.py']);
    for (const [, file, text] of files) writeFileSync(join(dir, file!), text!);
    const run = pytest(['-q', '-p', 'no:cacheprovider', '.'], dir, { DIPSWITCH_COMMAND: command });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/2 passed/);
    const typed = spawnSync('mypy', ['--strict', '--cache-dir', join(dir, '.mypy'), join(dir, 'test_sms.py')], {
      encoding: 'utf8',
      env: { ...clean, MYPYPATH: join(folder, 'src') },
    });
    expect(typed.status, `${typed.stdout}${typed.stderr}`).toBe(0);
  });

  it("the example client team's suite passes under pytest -n 4: a started server, a running one, a token-guarded one", async () => {
    const examples = join(projectRoot, 'examples', 'python');
    const started = pytest(['-n', '4', '-q', '.'], examples, {
      DIPSWITCH_COMMAND: command,
      DIPSWITCH_FAIL_UNDER: '10',
    });
    expect(started.status, `${started.stdout}${started.stderr}`).toBe(0);
    expect(started.stdout).toMatch(/3 passed/);
    expect(started.stdout).toMatch(/passes the gate of 10%/);
    const url = await running();
    const reached = pytest(['-n', '4', '-q', '--dipswitch-url', url, '.'], examples);
    expect(reached.status, `${reached.stdout}${reached.stderr}`).toBe(0);
    // the token given as an option reaches every xdist worker
    const guarded = await running({ SIM_ADMIN_TOKEN: 'T0k3n', HOST: '127.0.0.1' });
    const tokened = pytest(
      ['-n', '4', '-q', '--dipswitch-url', guarded, '--dipswitch-admin-token', 'T0k3n', '.'],
      examples,
    );
    expect(tokened.status, `${tokened.stdout}${tokened.stderr}`).toBe(0);
    expect(tokened.stdout).toMatch(/3 passed/);
  });

  it('a failing verify is a test failure showing the near miss field by field, not the library', () => {
    const run = pytest(withCommand(['-q', 'examples_failing']));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^>\s+dipswitch_sandbox\.requests\.verify\(/m);
    expect(run.stdout).toMatch(/^E\s+dipswitch\.VerificationError: Expected exactly 1 matching calls, found 0\.$/m);
    expect(run.stdout).toContain('/body/data/name: expected "lunch", got "launch"');
    expect(run.stdout).not.toMatch(/dipswitch\/(_core|requests|_verifying)\.py/);
  });

  it('with nothing to start, one line naming the ways; a launcher that fails shows its own last lines', () => {
    const nowhere = scratchDir('nowhere');
    writeFileSync(join(nowhere, 'test_one.py'), 'def test_one(dipswitch_sandbox):\n    pass\n');
    const none = pytest(['-q', 'test_one.py'], nowhere);
    expect(none.status).toBe(1);
    expect(none.stdout).toMatch(
      /dipswitch: no server to reach or start: set DIPSWITCH_URL .* DIPSWITCH_FETCH=true \(npx dipswitch@0\.1\.0\)/,
    );
    // a launcher's flags follow the command's own words: a script that fails whatever it is given
    writeFileSync(join(nowhere, 'boom.mjs'), "console.error('boom: the port is taken'); process.exit(3);\n");
    const failing = pytest(['-q', 'test_one.py'], nowhere, {
      DIPSWITCH_COMMAND: `${process.execPath} '${join(nowhere, 'boom.mjs')}'`,
    });
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('boom: the port is taken');
    expect(failing.stdout).toMatch(/exited with 3/);
  });

  it('dipswitch installed in the project (node_modules/.bin) is started with no setting', () => {
    const project = scratchDir('project');
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    const bin = join(project, 'node_modules', '.bin', 'dipswitch');
    symlinkSync(main, bin);
    chmodSync(main, 0o755);
    writeFileSync(
      join(project, 'test_one.py'),
      'def test_one(dipswitch_sandbox):\n    assert len(dipswitch_sandbox.numbers) == 10\n',
    );
    const run = pytest(['-q', 'test_one.py'], project);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });

  it('installed in a fresh venv: an unrelated suite is untouched, the clone stays clean, both ways load it', () => {
    const gitStatus = () =>
      spawnSync('git', ['status', '--porcelain', 'clients/python'], { cwd: projectRoot, encoding: 'utf8' }).stdout;
    const before = gitStatus();
    const venv = scratchDir('venv');
    expect(spawnSync(python!, ['-m', 'venv', '--system-site-packages', venv], { timeout: 120_000 }).status).toBe(0);
    const pip = spawnSync(
      join(venv, 'bin', 'python'),
      ['-m', 'pip', 'install', '-q', '--no-index', '--no-build-isolation', folder],
      { encoding: 'utf8', timeout: 120_000, env: { ...clean, PIP_DISABLE_PIP_VERSION_CHECK: '1' } },
    );
    expect(pip.status, pip.stderr).toBe(0);
    expect(gitStatus()).toBe(before);
    const suite = scratchDir('unrelated');
    writeFileSync(join(suite, 'test_plain.py'), 'def test_plain():\n    assert 1 + 1 == 2\n');
    const inVenv = (args: string[]) =>
      spawnSync(join(venv, 'bin', 'python'), ['-m', 'pytest', '-p', 'no:cacheprovider', ...args], {
        cwd: suite,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...clean, PYTHONDONTWRITEBYTECODE: '1', TMPDIR: pytestTmp },
      });
    const plain = inVenv(['-q', '-n', '2']);
    expect(plain.status, plain.stdout).toBe(0);
    expect(plain.stdout + plain.stderr).not.toMatch(/dipswitch/i);
    expect(leftover()).toEqual([]);
    expect(inVenv(['--help']).stdout).toContain('--dipswitch-url');
    const both = inVenv(['-q', '-p', 'dipswitch.pytest_plugin']);
    expect(both.status, both.stdout + both.stderr).toBe(0);
  });

  it('strict mypy passes over the package and its examples', () => {
    const mypy = spawnSync(python!, ['-m', 'mypy', '--version'], { encoding: 'utf8' });
    if (mypy.status !== 0) {
      if (process.env.CI) throw new Error('CI type-checks the Python client: install mypy');
      return;
    }
    const run = spawnSync(python!, ['-m', 'mypy', '--strict', 'src/dipswitch', '../../examples/python'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...clean, MYPYPATH: join(folder, 'src'), MYPY_CACHE_DIR: scratchDir('mypy') },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
