/**
 * The Ruby client and its RSpec and Minitest glue (clients/ruby), run as a Ruby team runs them: Debian's ruby,
 * RSpec 3.12 and Minitest 5.17, the run's server started at the first sandbox (the built command) or reached at a
 * running one, a sandbox per example; the client's own spec; the README's examples as pasted; the example team's
 * suite (examples/ruby) with its gate, two RSpec processes side by side, and a `kill -9` of the runner leaving no
 * server. Outside CI, without ruby and rspec, skipped saying why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';
import { answers, MAIN, ownServer } from '../support/own_server.js';

const ruby = spawnSync('rspec', ['--version'], { encoding: 'utf8' }).status === 0;
if (!ruby) {
  if (process.env.CI)
    throw new Error('CI runs the Ruby client: install ruby, ruby-rspec, ruby-minitest and ruby-webrick');
  console.warn('Ruby client tests skipped: no ruby with rspec');
}

const client = join(projectRoot, 'clients', 'ruby');
const lib = join(client, 'lib');
const command = `${process.execPath} ${MAIN} --memory --port 0 --clock frozen --no-smpp`;
/** The environment a run begins with: no setting of dipswitch's from the machine's. */
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_')));
const scratch = mkdtempSync(join(tmpdir(), 'dipswitch-ruby-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A command in `cwd` with the client's lib on Ruby's load path, `env` beside a clean environment. */
const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...clean, TMPDIR: scratch, RUBYLIB: lib, ...env },
  });
const rspec = (cwd: string, env: Record<string, string> = {}, args: string[] = []) => run('rspec', args, cwd, env);

describe.skipIf(!ruby)('the Ruby client', { timeout: 180_000 }, () => {
  it("its own spec: settings, the command's words, signatures, every operation a method or a reason", () => {
    const own = rspec(client, {}, ['spec']);
    expect(own.status, own.stdout).toBe(0);
    expect(own.stdout).toMatch(/4 examples, 0 failures/);
  });

  it('Minitest: a sandbox per test; the gate one more reporter, failing the run under it', () => {
    const minitest = (gate?: string) =>
      run('ruby', ['test/minitest_test.rb'], client, {
        DIPSWITCH_COMMAND: command,
        ...(gate ? { DIPSWITCH_FAIL_UNDER: gate } : {}),
      });
    const ungated = minitest();
    expect(ungated.status, `${ungated.stdout}${ungated.stderr}`).toBe(0);
    expect(ungated.stdout).toMatch(/2 runs, \d+ assertions, 0 failures, 0 errors/);
    expect(ungated.stdout).toMatch(/no gate \(DIPSWITCH_FAIL_UNDER is not set\)$/m);
    const gated = minitest('100');
    expect(gated.status).toBe(1);
    expect(gated.stdout).toMatch(/FAILS the gate of 100%$/m);
  });

  it("the README's examples run as pasted: a signed SMS at the test's receiver, a fault, a verify", () => {
    const dir = join(scratch, 'readme');
    mkdirSync(join(dir, 'spec'), { recursive: true });
    const readme = readFileSync(join(client, 'README.md'), 'utf8');
    const files = [...readme.matchAll(/```ruby file=(\S+)\n([\s\S]*?)```/g)];
    expect(files.map((f) => f[1])).toEqual(['spec/spec_helper.rb', 'spec/sms_spec.rb']);
    for (const [, file, text] of files) writeFileSync(join(dir, file!), text!);
    writeFileSync(join(dir, '.rspec'), '--require spec_helper\n');
    const readmeRun = rspec(dir, { DIPSWITCH_COMMAND: command });
    expect(readmeRun.status, `${readmeRun.stdout}${readmeRun.stderr}`).toBe(0);
    expect(readmeRun.stdout).toMatch(/2 examples, 0 failures/);
    expect(readmeRun.stderr).toMatch(/no gate \(DIPSWITCH_FAIL_UNDER is not set\)$/m);
  });

  it('the example team suite passes over its gate and fails under it, the line said', () => {
    const examples = join(projectRoot, 'examples', 'ruby');
    const passing = rspec(examples, { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '10' }, ['-I', 'lib']);
    expect(passing.status, `${passing.stdout}${passing.stderr}`).toBe(0);
    expect(passing.stdout).toMatch(/4 examples, 0 failures/);
    expect(passing.stderr).toMatch(/^dipswitch coverage of run ruby-\d+: .* passes the gate of 10%$/m);
    const failing = rspec(examples, { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '100' }, ['-I', 'lib']);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toMatch(/4 examples, 0 failures, 1 error occurred outside of examples/);
    expect(failing.stderr).toMatch(/FAILS the gate of 100%$/m);
    const none = rspec(examples, {}, ['-I', 'lib']);
    expect(none.status).not.toBe(0);
    expect(`${none.stdout}${none.stderr}`).toContain('dipswitch: no server to reach or start: set DIPSWITCH_URL');
  });

  it('two RSpec processes side by side on one server: each its run and sandboxes, both green', async () => {
    const server = await ownServer(clean);
    try {
      const examples = join(projectRoot, 'examples', 'ruby');
      const both = await Promise.all(
        ['one', 'two'].map(
          (side) =>
            new Promise<{ code: number | null; out: string }>((resolve) => {
              const child = spawn('rspec', ['-I', 'lib'], {
                cwd: examples,
                env: {
                  ...clean,
                  TMPDIR: scratch,
                  RUBYLIB: lib,
                  DIPSWITCH_URL: server.url,
                  DIPSWITCH_RUN: `side-${side}`,
                },
              });
              let out = '';
              child.stdout.on('data', (d) => (out += d));
              child.stderr.on('data', (d) => (out += d));
              child.on('exit', (code) => resolve({ code, out }));
            }),
        ),
      );
      for (const { code, out } of both) expect(code, out).toBe(0);
      for (const side of ['side-one', 'side-two']) {
        const coverage = (await (await fetch(`${server.url}/__sim/coverage?run=${side}`)).json()) as {
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
      'ruby',
      ['-e', `require 'dipswitch'; File.write(${JSON.stringify(urlFile)}, Dipswitch.start.url); sleep 120`],
      { env: { ...clean, TMPDIR: scratch, RUBYLIB: lib, DIPSWITCH_COMMAND: command }, stdio: 'ignore' },
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
