/**
 * The PHP client and its PHPUnit glue (clients/php), run as a PHP team runs them: Debian's php-cli and PHPUnit 9.6,
 * the run's server started from the bootstrap (the built command) or reached at a running one, a sandbox per test;
 * the client's own suite; the README's examples as pasted; the example team's suite (examples/php) with its gate,
 * two PHPUnit processes side by side, and a `kill -9` of the runner leaving no server. Outside CI, without PHP and
 * PHPUnit, skipped saying why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';
import { answers, MAIN, ownServer } from '../support/own_server.js';

const php = spawnSync('phpunit', ['--version'], { encoding: 'utf8' }).status === 0;
if (!php) {
  if (process.env.CI) throw new Error('CI runs the PHP client: install php-cli, php-curl and phpunit');
  console.warn('PHP client tests skipped: no php with phpunit');
}

const client = join(projectRoot, 'clients', 'php');
const command = `${process.execPath} ${MAIN} --memory --port 0 --clock frozen --no-smpp`;
/** The environment a run begins with: no setting of dipswitch's from the machine's. */
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_')));
const scratch = mkdtempSync(join(tmpdir(), 'dipswitch-php-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** phpunit in `cwd`, with `env` beside a clean environment. */
const phpunit = (cwd: string, env: Record<string, string> = {}, args: string[] = []) =>
  spawnSync('phpunit', args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...clean, TMPDIR: scratch, ...env } });

describe.skipIf(!php)('the PHP client', { timeout: 180_000 }, () => {
  it("its own suite: settings, the command's words, signatures, every operation a method or a reason", () => {
    const run = phpunit(client);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/OK \(4 tests/);
    for (const file of ['src/Core.php', 'src/Launcher.php', 'bin/keeper.php', 'bin/receiver.php'])
      expect(spawnSync('php', ['-l', join(client, file)], { encoding: 'utf8' }).status, file).toBe(0);
  });

  it("the README's examples run as pasted: a signed SMS at the test's receiver, a fault, a verify", () => {
    const dir = join(scratch, 'readme');
    mkdirSync(join(dir, 'tests'), { recursive: true });
    mkdirSync(join(dir, 'vendor'));
    writeFileSync(
      join(dir, 'vendor', 'autoload.php'),
      `<?php require ${JSON.stringify(join(client, 'autoload.php'))};\n`,
    );
    const readme = readFileSync(join(client, 'README.md'), 'utf8');
    const files = [...readme.matchAll(/```php file=(\S+)\n([\s\S]*?)```/g)];
    expect(files.map((f) => f[1])).toEqual(['tests/bootstrap.php', 'tests/SmsTest.php']);
    for (const [, file, text] of files) writeFileSync(join(dir, file!), text!);
    writeFileSync(
      join(dir, 'phpunit.xml'),
      '<phpunit bootstrap="tests/bootstrap.php"><testsuites><testsuite name="t"><directory>tests</directory></testsuite></testsuites></phpunit>\n',
    );
    const run = phpunit(dir, { DIPSWITCH_COMMAND: command });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/OK \(2 tests/);
    expect(run.stderr).toMatch(/no gate \(DIPSWITCH_FAIL_UNDER is not set\)$/m);
  });

  it('the example team suite passes over its gate and fails under it, the line after the summary', () => {
    const examples = join(projectRoot, 'examples', 'php');
    const passing = phpunit(examples, { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '10' });
    expect(passing.status, `${passing.stdout}${passing.stderr}`).toBe(0);
    expect(passing.stdout).toMatch(/OK \(4 tests/);
    expect(passing.stderr).toMatch(/^dipswitch coverage of run php-\d+: .* passes the gate of 10%$/m);
    const failing = phpunit(examples, { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '100' });
    expect(failing.status).toBe(1);
    expect(failing.stdout).toMatch(/OK \(4 tests/);
    expect(failing.stderr).toMatch(/FAILS the gate of 100%$/m);
    const none = phpunit(examples, { PATH: process.env.PATH! }, ['--filter', 'nothingIsCalledThis']);
    expect(none.status).not.toBe(0);
    expect(`${none.stdout}${none.stderr}`).toContain('dipswitch: no server to reach or start: set DIPSWITCH_URL');
  });

  it('two PHPUnit processes side by side on one server: each its run and sandboxes, both green', async () => {
    const server = await ownServer(clean);
    try {
      const examples = join(projectRoot, 'examples', 'php');
      const both = await Promise.all(
        ['one', 'two'].map(
          (run) =>
            new Promise<{ code: number | null; out: string }>((resolve) => {
              const child = spawn('phpunit', [], {
                cwd: examples,
                env: { ...clean, TMPDIR: scratch, DIPSWITCH_URL: server.url, DIPSWITCH_RUN: `side-${run}` },
              });
              let out = '';
              child.stdout.on('data', (d) => (out += d));
              child.stderr.on('data', (d) => (out += d));
              child.on('exit', (code) => resolve({ code, out }));
            }),
        ),
      );
      for (const { code, out } of both) expect(code, out).toBe(0);
      for (const run of ['side-one', 'side-two']) {
        const coverage = (await (await fetch(`${server.url}/__sim/coverage?run=${run}`)).json()) as {
          summary: { operations_called: number };
        };
        expect(coverage.summary.operations_called).toBeGreaterThan(3);
      }
    } finally {
      server.stop();
    }
  });

  it('kill -9 of the test process leaves no server behind', async () => {
    const urlFile = join(scratch, 'url');
    const runner = spawn(
      'php',
      [
        '-r',
        `require ${JSON.stringify(join(client, 'autoload.php'))}; file_put_contents(${JSON.stringify(urlFile)}, Dipswitch\\Dipswitch::start()->url); sleep(120);`,
      ],
      { env: { ...clean, TMPDIR: scratch, DIPSWITCH_COMMAND: command }, stdio: 'ignore' },
    );
    const url = await eventually(() => {
      try {
        return readFileSync(urlFile, 'utf8') || undefined;
      } catch {
        // not written yet: the server is starting
        return undefined;
      }
    }, 'the runner to start its server');
    expect(await answers(url)).toBe(true);
    runner.kill('SIGKILL');
    await eventually(async () => !(await answers(url)), 'the server to end with its runner');
  });
});
