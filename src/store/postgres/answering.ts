/**
 * Whether the database answers. A connection lost, or a statement or a connection it does not answer
 * in time (the database stopped, restarting, frozen, cut off), says it is away: from then on every
 * statement is refused at once (503 `storage_unavailable`) rather than each call waiting out its
 * bounds, while one probe at a time asks the database again every PROBE_MS. Its first answer ends
 * it. A refusal the database itself makes (a constraint, a statement or lock it cancelled) says
 * nothing of the kind.
 */
import pg from 'pg';
import { elapsedMs, stopwatch, type Logger as FullLogger } from '../../deps.js';
import { StorageUnavailable } from '../store.js';
import { unavailable } from './statements.js';

/** How often the database is asked again while it is away. */
export const PROBE_MS = 100;

/** Whether `e` says the connection, not the statement, failed: the database is away. */
function connectionLost(e: unknown): boolean {
  const cause = e instanceof StorageUnavailable ? e.cause : e;
  // 08: a connection exception; 57P: the server shutting down, crashed, or not yet taking connections
  if (cause instanceof pg.DatabaseError) return /^(08|57P)/.test(cause.code ?? '');
  return unavailable(cause);
}

export class Answering {
  /** The probe under way while the database is away. */
  private probe: Promise<void> | undefined;
  private closed = false;
  /** What said it was away. */
  private why = '';

  constructor(
    /** One statement, within the store's bounds. */
    private readonly ask: () => Promise<unknown>,
    private readonly logger: Pick<FullLogger, 'warn'>,
  ) {}

  /** Throws StorageUnavailable while the database is away. */
  check(): void {
    if (this.probe) throw new StorageUnavailable(new Error(`PostgreSQL is not answering (${this.why})`));
  }

  /** Hears a failure; one that says the database is away starts the probe. */
  failed(e: unknown): void {
    if (this.probe || this.closed || !connectionLost(e)) return;
    this.why = ((e instanceof StorageUnavailable ? e.cause : e) as Error)?.message ?? String(e);
    this.logger.warn(`store: PostgreSQL is not answering (${this.why}): calls are answered 503 until it does`);
    const since = stopwatch();
    this.probe = (async () => {
      while (!this.closed) {
        await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
        try {
          await this.ask();
          this.logger.warn(`store: PostgreSQL answers again, after ${Math.round(elapsedMs(since))} ms`);
          return;
        } catch {
          // still away: asked again shortly
        }
      }
    })().finally(() => (this.probe = undefined));
  }

  close(): void {
    this.closed = true;
  }
}
