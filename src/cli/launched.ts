/**
 * The launch contract (docs/clients.md): how a server tells the process that launched it where it
 * serves (`--ready-file`), and ends with it (`--exit-with-stdin`, `--parent-pid`, and npx's own).
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Logger } from '../deps.js';
import type { components } from '../generated/sim.js';
import { Stop } from './stop.js';

/**
 * The launch contract (contract/sim.yaml `ready_file`): written beside its path, then renamed over it, so
 * a launcher polling for the file reads it whole or not at all.
 */
export function ready(path: string, said: components['schemas']['ready_file']): void {
  const beside = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(beside, `${JSON.stringify(said)}\n`);
    renameSync(beside, path);
  } catch (e) {
    throw new Stop(`cannot write the ready file ${path}: ${(e as Error).message}`, 1);
  }
}

/** A clean stop removes the ready file: one left behind says a server that is gone. */
export function unready(path: string, logger: Logger): void {
  try {
    rmSync(path, { force: true });
  } catch (e) {
    logger.warn(`could not remove the ready file ${path}: ${(e as Error).message}`);
  }
}

/**
 * Stops once standard input closes: the process that started this one with a pipe as its input is gone
 * (however it ended: the system closes its end of the pipe), in any language, with no signal to ask for.
 * What arrives on it is read and dropped.
 */
function stopWithStdin(logger: { info(m: string): void }, shutdown: () => void): void {
  const stdin = process.stdin;
  stdin.on('data', () => {});
  stdin.once('end', () => {
    logger.info('standard input closed: stopping');
    shutdown();
  });
  stdin.once('error', () => shutdown());
  stdin.resume();
}

/** How often a server that npx launched, or given --parent-pid, looks for that process. */
const LAUNCHER_CHECK_MS = 250;

/** Whether a process is there (one of another user's answers EPERM: it is). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stops once process `pid` is gone (`--parent-pid`): a launcher whose own child this server is not. */
function stopWithProcess(pid: number, logger: { info(m: string): void }, shutdown: () => void): void {
  const timer = setInterval(() => {
    if (running(pid)) return;
    clearInterval(timer);
    logger.info(`process ${pid} is gone: stopping`);
    shutdown();
  }, LAUNCHER_CHECK_MS);
  timer.unref();
}

/**
 * Stops with npx. `npx dipswitch &` then `kill -TERM` of that job signals npm alone: npm passes it to
 * the shell it ran the command in, which dies without passing it on, and the server, its child,
 * would go on holding the port. Launched by `npm exec` (npx), the server watches its parent: once it
 * is gone (the server handed to init or a subreaper), it stops as on SIGTERM. A server started any
 * other way outlives its shell, as a background process does.
 */
function stopWithLauncher(logger: { info(m: string): void }, shutdown: () => void): void {
  if (process.env.npm_command !== 'exec') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    logger.info('the npx that launched this server is gone: stopping');
    shutdown();
  }, LAUNCHER_CHECK_MS);
  timer.unref();
}

/**
 * What stops the server as SIGTERM does: SIGTERM, SIGINT, and the launcher's ending. A launcher that says
 * what the server ends with (its input, its pid) is taken at its word; else an npx that launched it is watched.
 */
export function stopOn(
  f: { exitWithStdin?: boolean; parentPid?: number },
  logger: { info(m: string): void },
  shutdown: () => void,
): void {
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  if (f.exitWithStdin) stopWithStdin(logger, shutdown);
  if (f.parentPid !== undefined) stopWithProcess(f.parentPid, logger, shutdown);
  if (!f.exitWithStdin && f.parentPid === undefined) stopWithLauncher(logger, shutdown);
}
