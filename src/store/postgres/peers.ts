/** The other instances of dipswitch on one database, heard and told over LISTEN/NOTIFY. */
import pg from 'pg';
import type { Logger as FullLogger } from '../../deps.js';
import { type PeerTopic, type Peers } from '../store.js';
import { cleanupFailed } from '../../domain/side_paths.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

/** The channel instances tell each other on (LISTEN/NOTIFY). */
const CHANNEL = 'dipswitch';
/** After the listening connection broke, it connects again this much later. */
const RELISTEN_MS = 1_000;
/** The longest a commit that told the others waits to hear its own message back (`echoed`). */
export const ECHO_WAIT_MS = 1_000;

/** A message told with a commit, and the wait for this instance to hear it back. */
export interface Echoed {
  /** The statement that tells it (for the commit's batch). */
  sql: string;
  /** Settles once this instance heard the message back (true), or after ECHO_WAIT_MS or at once when it is not listening (false). */
  heard(): Promise<boolean>;
}

/**
 * The other instances, over PostgreSQL's LISTEN/NOTIFY on one connection of its own (connected
 * again after it breaks). What is told is a hint to look again: nothing is lost with a missed one.
 */
export class PgPeers implements Peers {
  private readonly handlers = new Map<PeerTopic, ((payload: string) => void)[]>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly lost: (() => void)[] = [];
  /** The messages this instance told and waits to hear back, by their number. */
  private readonly echoes = new Map<number, () => void>();
  private sent = 0;

  /** Whether the other instances are heard now (what this one keeps of theirs is kept only then). */
  get hearing(): boolean {
    return this.client !== undefined;
  }

  /** Calls `fn` when the channel broke: what was told meanwhile is missed. */
  onLost(fn: () => void): void {
    this.lost.push(fn);
  }

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly instance: string,
    private readonly logger: Logger,
  ) {}

  async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (e) => {
      if (this.closed || this.client !== client) return;
      this.logger.warn(`store: the connection listening to other instances failed (${e.message}); connecting again`);
      this.client = undefined;
      for (const fn of this.lost) fn();
      void client.end().catch(cleanupFailed);
      this.again();
    });
    client.on('notification', (n) => this.heard(n.payload ?? ''));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    if (this.closed) await client.end();
    else this.client = client;
  }

  private again(): void {
    this.retry = setTimeout(() => {
      // listening failed again (the database still away): said once by listen's caller, tried again later
      if (!this.closed) this.listen().catch(() => this.again());
    }, RELISTEN_MS);
    this.retry.unref();
  }

  private heard(text: string): void {
    let message: { from?: string; topic?: PeerTopic; payload?: string; echo?: number };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      // a notification that is not JSON is no peer's: ignored
      return;
    }
    if (message.from === this.instance) {
      if (message.echo !== undefined) this.echoes.get(message.echo)?.();
      return;
    }
    if (!message.topic) return;
    for (const fn of this.handlers.get(message.topic) ?? []) fn(message.payload ?? '');
  }

  /**
   * What tells the other instances from inside a statement (the one place a message is made in SQL: from
   * whom, on what, and what): an expression for its select list, `payload` being an SQL expression of
   * the text told, and the parameters the expression numbers after the statement's own `count`; with
   * `echo`, the message carries that number for its teller to hear it back (tellingEchoed).
   */
  telling(topic: PeerTopic, payload: string, count: number, echo?: number): { sql: string; params: string[] } {
    const [channel, from, about, numbered] = [count + 1, count + 2, count + 3, count + 4].map((n) => `$${n}::text`);
    const echoed = echo === undefined ? '' : `, 'echo', ${numbered}::integer`;
    return {
      sql: `pg_notify(${channel}, json_build_object('from', ${from}, 'topic', ${about}, 'payload', ${payload}${echoed})::text)`,
      params: [CHANNEL, this.instance, topic, ...(echo === undefined ? [] : [String(echo)])],
    };
  }

  /** As `telling`, the message numbered, with the wait to hear it back once the statement told it (Echoed's `heard`). */
  tellingEchoed(
    topic: PeerTopic,
    payload: string,
    count: number,
  ): { sql: string; params: string[]; heard(): Promise<boolean> } {
    const { echo, heard } = this.awaitEcho();
    return { ...this.telling(topic, payload, count, echo), heard };
  }

  /**
   * A statement that tells the other instances `payload` on `topic` (for a commit's batch), and the
   * wait for this instance to hear it back: PostgreSQL sends a notification to every listening
   * session at the commit, so once this one heard it, every other instance was sent it too.
   */
  echoed(topic: PeerTopic, payload: string): Echoed {
    const { echo, heard } = this.awaitEcho();
    const message = JSON.stringify({ from: this.instance, topic, payload, echo });
    return { sql: `SELECT pg_notify(${pg.escapeLiteral(CHANNEL)}, ${pg.escapeLiteral(message)})`, heard };
  }

  /** A number for a message about to be told, and the wait to hear it back (Echoed's `heard`). */
  private awaitEcho(): { echo: number; heard(): Promise<boolean> } {
    const echo = ++this.sent;
    if (!this.hearing) return { echo, heard: () => Promise.resolve(false) };
    let done!: (heard: boolean) => void;
    const back = new Promise<boolean>((resolve) => (done = resolve));
    const timer = setTimeout(() => done(false), ECHO_WAIT_MS);
    timer.unref();
    this.echoes.set(echo, () => done(true));
    const over = back.then((heard) => {
      clearTimeout(timer);
      this.echoes.delete(echo);
      return heard;
    });
    return { echo, heard: () => over };
  }

  tell(topic: PeerTopic, payload: string): void {
    const told = this.telling(topic, '$1::text', 1);
    this.pool
      .query(`SELECT ${told.sql}`, [payload, ...told.params])
      .catch((e: Error) => this.logger.warn(`store: could not tell the other instances (${e.message})`));
  }

  hear(topic: PeerTopic, fn: (payload: string) => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), fn]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(cleanupFailed);
  }
}
