/**
 * The launch contract (docs/clients.md): a launcher in any language learns the server's address from
 * `--ready-file` (whatever the port and the log level) and ends it with itself by `--exit-with-stdin`,
 * however it ends: a `kill -9` of the process that started the server closes the server's standard
 * input, and the server stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { componentValidator, packageVersion, projectRoot } from '../../src/contract.js';
import { COMMAND, freePort, runCliAsync } from '../support/cli_process.js';
import { eventually } from '../support/eventually.js';

const dir = mkdtempSync(join(tmpdir(), 'dipswitch-launch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** The server as a launcher starts it: its output to nobody, a pipe as its input. */
function launch(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [...COMMAND, '--memory', '--port', '0', '--smpp-port', '0', ...args], {
    cwd: projectRoot,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  started.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** Whether a process is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: no such process
    return false;
  }
}

describe('the launch contract', () => {
  it('--ready-file: the URL, SMPP port, pid and version, with --port 0 and a quiet log; gone after a clean stop', async () => {
    const file = join(dir, 'quiet.json');
    const child = launch(['--ready-file', file, '--log-level', 'silent']);
    await eventually(() => existsSync(file), 'the ready file');
    const said = JSON.parse(readFileSync(file, 'utf8')) as { url: string; smpp_port: number; pid: number };
    const validate = componentValidator('ready_file', 'sim');
    expect(validate(said), JSON.stringify(validate.errors)).toBe(true);
    expect(said).toMatchObject({
      pid: child.pid,
      version: packageVersion,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(said.smpp_port).toBeGreaterThan(0);
    // the server listens once the file is there
    expect((await fetch(`${said.url}/__sim/health`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(existsSync(file), 'removed by the clean stop').toBe(false);
  });

  it('--no-smpp says so in the ready file', async () => {
    const file = join(dir, 'no-smpp.json');
    const child = launch(['--ready-file', file, '--no-smpp', '-q']);
    await eventually(() => existsSync(file), 'the ready file');
    expect(JSON.parse(readFileSync(file, 'utf8')).smpp_port).toBeNull();
    child.kill('SIGTERM');
    await exited(child);
  });

  it('a ready file that cannot be written stops the start with one line', async () => {
    const child = spawn(
      process.execPath,
      [...COMMAND, '--memory', '--port', '0', '--no-smpp', '--ready-file', join(dir, 'no', 'such', 'folder', 'r.json')],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    expect(await exited(child)).toBe(1);
    expect(err.trim()).toMatch(/^dipswitch: cannot write the ready file .*r\.json: ENOENT/);
  });

  it('--exit-with-stdin: the server stops when its input closes', async () => {
    const file = join(dir, 'stdin.json');
    const child = launch(['--ready-file', file, '--exit-with-stdin']);
    await eventually(() => existsSync(file), 'the ready file');
    child.stdin!.write('anything sent is dropped\n');
    child.stdin!.end();
    expect(await exited(child)).toBe(0);
  });

  it('a kill -9 of the process that started it ends the server', async () => {
    const file = join(dir, 'orphan.json');
    // the launcher: a process that starts the server with a pipe as its input, then is killed
    const launcher = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify([...COMMAND.map((p) => join(projectRoot, p)), '--memory', '--port', '0', '--no-smpp', '--exit-with-stdin', '--ready-file', file])}, { stdio: ['pipe', 'ignore', 'ignore'] }); setInterval(() => {}, 1000);`,
      ],
      { stdio: 'ignore' },
    );
    started.push(launcher);
    await eventually(() => existsSync(file), 'the ready file');
    const { pid } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number };
    expect(alive(pid)).toBe(true);
    launcher.kill('SIGKILL');
    await eventually(() => !alive(pid), 'the server to end with its launcher');
  });

  it('--parent-pid: the server stops once that process is gone, though it is not its parent', async () => {
    const file = join(dir, 'parent.json');
    const owner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    started.push(owner);
    const child = launch(['--ready-file', file, '--parent-pid', String(owner.pid)]);
    await eventually(() => existsSync(file), 'the ready file');
    owner.kill('SIGKILL');
    expect(await exited(child)).toBe(0);
  });

  it("a launcher's own ending is the one watched: started under npx's environment, it outlives its direct parent", async () => {
    const file = join(dir, 'npx.json');
    // a pytest-xdist worker starts the session's server for the controller (this process), then ends
    const worker = spawn(
      process.execPath,
      [
        '-e',
        `require('node:child_process').spawn(process.execPath, ${JSON.stringify([...COMMAND.map((p) => join(projectRoot, p)), '--memory', '--port', '0', '--no-smpp', '--parent-pid', String(process.pid), '--ready-file', file])}, { stdio: 'ignore', detached: true }).unref();`,
      ],
      { stdio: 'ignore', env: { ...process.env, npm_command: 'exec' } },
    );
    await exited(worker);
    await eventually(() => existsSync(file), 'the ready file');
    const { pid, url } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
    await new Promise((r) => setTimeout(r, 1_000));
    expect(alive(pid), 'still serving once the process that started it ended').toBe(true);
    expect((await fetch(`${url}/__sim/health`)).status).toBe(200);
    process.kill(pid, 'SIGTERM');
    await eventually(() => !alive(pid), 'the server to stop');
  });

  it('dipswitch listen gives up on a URL that never answered, after --give-up, with the cause', async () => {
    const nothing = await freePort();
    const started = Date.now();
    const given = await runCliAsync([
      'listen',
      '--url',
      `http://127.0.0.1:${nothing}`,
      '--key',
      'demo-admin-key',
      '--forward-to',
      'http://127.0.0.1:9',
      '--give-up',
      '1500',
    ]);
    expect(given.status).toBe(1);
    expect(given.stderr).toMatch(
      new RegExp(`dipswitch: http://127\\.0\\.0\\.1:${nothing} did not answer within 1\\.5 s \\(connect ECONNREFUSED`),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
