/** How the command ends early: one line on standard error and an exit code; start-up failures put in one line. */
import { packageVersion } from '../contract.js';
import { StoreInaccessible, StoreRefused } from '../store/embedded/refusals.js';
import { StoreHeld } from '../store/embedded/owner.js';

export const CONFIG_FILE = 'dipswitch.config.json';

/** Ends the command with one line on standard error and `code`: 2 for what was asked, 1 for what failed. */
export class Stop extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

export const version = packageVersion;

// ---- start-up failures

/** A listen failure in one line, or null when it is not one of those. */
export function listenFailure(e: unknown, host: string, port: number, flag = '--port'): Stop | null {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new Stop(`port ${port} on ${host} is in use: stop what holds it, or pick another with ${flag}`, 1);
    case 'EADDRNOTAVAIL':
      return new Stop(`address ${host} is not one of this machine's: pick another with --host`, 1);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new Stop(`host ${host} cannot be resolved: pick another with --host`, 1);
    case 'EACCES':
    case 'EPERM':
      return new Stop(`no permission to listen on ${host}:${port}: pick a port above 1023`, 1);
    default:
      return null;
  }
}

/** A store the command was pointed at that is no store (exit 2), or one it cannot use (exit 1), as one line. */
export function storeStop(e: unknown): void {
  if (e instanceof StoreRefused) throw new Stop(e.message, 2);
  if (e instanceof StoreInaccessible || e instanceof StoreHeld) throw new Stop(e.message, 1);
}

export async function listening<T>(start: () => Promise<T>, host: string, port: number, flag?: string): Promise<T> {
  try {
    return await start();
  } catch (e) {
    throw listenFailure(e, host, port, flag) ?? e;
  }
}
