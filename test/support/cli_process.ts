/** The `dipswitch` command as a test runs it: spawned, its output read, its exit code awaited. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { projectRoot } from '../../src/contract.js';
export { eventually } from './eventually.js';

/** The built command (test/support/build_global.ts builds it when a source changed); `bin` runs another file (the packed package's). */
export const COMMAND = ['dist/src/cli/main.js'];

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command to its end. */
export function runCli(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Finished {
  const run = spawnSync(process.execPath, [...COMMAND, ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs the command to its end without blocking this process (a receiver the test serves can answer it). */
export function runCliAsync(args: string[]): Promise<Finished> {
  const child = spawn(process.execPath, [...COMMAND, ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

export interface Running {
  child: ChildProcess;
  /** Everything written to standard output so far. */
  out(): string;
  /** Everything written to standard error so far. */
  err(): string;
  /** The JSON log lines so far. */
  lines(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Starts the command and resolves once `ready` matches its output (the banner by default). */
export async function startCli(
  args: string[],
  opts: { env?: Record<string, string>; ready?: RegExp; command?: string[] } = {},
): Promise<Running & { base: string }> {
  const child = spawn(process.execPath, [...(opts.command ?? COMMAND), ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const ready = opts.ready ?? /serving (http:\/\/[\d.]+:\d+)/;
  const base = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = ready.exec(out);
      if (m) resolve(m[1] ?? '');
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
  });
  return {
    child,
    base,
    out: () => out,
    err: () => err,
    lines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A port nothing listens on (just now). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
