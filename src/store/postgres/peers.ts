/** The other instances of dipswitch on one database, heard and told over LISTEN/NOTIFY. */
import pg from 'pg';
import type { Logger as FullLogger } from '../../deps.js';
import { type PeerTopic, type Peers } from '../store.js';
import { cleanupFailed } from '../../domain/side_paths.js';
import { parseJson } from '../../domain/json.js';
import { PgSlots } from './slots.js';

/** The store only warns. */
type Logger = Pick<FullLogger, 'warn'>;

/** The channel instances tell each other on (LISTEN/NOTIFY). */
const CHANNEL = 'dipswitch';
/** After the listening connection broke, it connects again this much later. */
const RELISTEN_MS = 1_000;
/** The longest a commit that told the others waits for every instance to hear it (`echoed`). */
export const ECHO_WAIT_MS = 1_000;
/**
 * What the name of a listening session in pg_stat_activity begins with (then its instance's name): how a
 * teller knows how many instances must hear it.
 */
export const LISTENER_NAME = 'dipswitch-peer';

/** A message told with a commit, and the wait for every instance to hear it. */
export interface Echoed {
  /** The statement that tells it (for the commit's batch). */
  sql: string;
  /**
   * Settles once this instance heard the message back and every other instance listening said it heard
   * it (true), or after ECHO_WAIT_MS or at once when this one is not listening (false).
   */
  heard(): Promise<boolean>;
}

/** What a told message waits for: its teller to hear it back, and as many other instances as listen to say they heard it. */
class Echo {
  private readonly acks = new Set<string>();
  /** Counted once its teller heard it back. */
  private others: number | undefined;
  private done!: (heard: boolean) => void;
  readonly settled = new Promise<boolean>((resolve) => (this.done = resolve));

  /** Its teller heard it back (it was told): the other instances listening then are counted. */
  heardBack(others: Promise<number>): void {
    others.then(
      (n) => this.listening(n),
      () => this.end(),
    );
  }

  acked(by: string): void {
    this.acks.add(by);
    this.check();
  }

  private listening(others: number): void {
    this.others = others;
    this.check();
  }

  end(): void {
    this.done(false);
  }

  private check(): void {
    if (this.others !== undefined && this.acks.size >= this.others) this.done(true);
  }
}

/**
 * The other instances, over PostgreSQL's LISTEN/NOTIFY on one connection of its own (connected
 * again after it breaks). What is told is a hint to look again: nothing is lost with a missed one.
 */
export class PgPeers implements Peers {
  readonly slots: PgSlots;
  private readonly handlers = new Map<PeerTopic, ((payload: string) => void)[]>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly lost: (() => void)[] = [];
  /** The messages this instance told and waits for every instance to hear, by their number. */
  private readonly echoes = new Map<number, Echo>();
  private sent = 0;
  /** The backend of the listening session (not counted among the others). */
  private listenerPid = 0;

  /** Whether the other instances are heard now (what this one keeps of theirs is kept only then). */
  get hearing(): boolean {
    return this.client !== undefined;
  }

  /** Calls `fn` when the channel broke: what was told meanwhile is missed. */
  onLost(fn: () => void): void {
    this.lost.push(fn);
  }

  constructor(
    /** The listening connection's settings (connection.ts). */
    private readonly connection: pg.ClientConfig,
    private readonly pool: pg.Pool,
    private readonly instance: string,
    private readonly logger: Logger,
  ) {
    this.slots = new PgSlots(pool);
  }

  async listen(): Promise<void> {
    const client = new pg.Client(this.connection);
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
    // named once it listens: a teller counts the sessions so named as the instances that must hear it
    const named = await client.query<{ pid: number }>(
      "SELECT set_config('application_name', $1, false), pg_backend_pid() AS pid",
      [`${LISTENER_NAME} ${this.instance}`],
    );
    this.listenerPid = named.rows[0]?.pid ?? 0;
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
    const message = parseJson(text) as
      { from?: string; topic?: PeerTopic; payload?: string; echo?: number; ack?: string } | undefined;
    // a notification that is not JSON is no peer's: ignored
    if (message === undefined) return;
    const { from, echo, ack } = message;
    if (ack !== undefined) {
      if (ack === this.instance && from && echo !== undefined) this.echoes.get(echo)?.acked(from);
      return;
    }
    if (from === this.instance) {
      if (echo !== undefined) this.echoes.get(echo)?.heardBack(this.otherListeners());
      return;
    }
    if (!message.topic) return;
    for (const fn of this.handlers.get(message.topic) ?? []) fn(message.payload ?? '');
    // what a teller waits for: this instance has acted on its message (its handlers ran, its copies dropped)
    if (from && echo !== undefined) this.acknowledge(from, echo);
  }

  private acknowledge(teller: string, echo: number): void {
    const message = JSON.stringify({ from: this.instance, ack: teller, echo });
    this.client
      ?.query('SELECT pg_notify($1, $2)', [CHANNEL, message])
      .catch((e: Error) => this.logger.warn(`store: could not answer another instance (${e.message})`));
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

  /** A number for a message about to be told, and the wait for every instance to hear it (Echoed's `heard`). */
  private awaitEcho(): { echo: number; heard(): Promise<boolean> } {
    const echo = ++this.sent;
    if (!this.hearing) return { echo, heard: () => Promise.resolve(false) };
    const waiting = new Echo();
    const timer = setTimeout(() => waiting.end(), ECHO_WAIT_MS);
    timer.unref();
    this.echoes.set(echo, waiting);
    const over = waiting.settled.then((heard) => {
      clearTimeout(timer);
      this.echoes.delete(echo);
      return heard;
    });
    return { echo, heard: () => over };
  }

  /** How many other sessions listen on this database under the listeners' name (each an instance). */
  private async otherListeners(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE $1 || '%' AND pid <> $2",
      [LISTENER_NAME, this.listenerPid],
    );
    return rows[0]?.n ?? 0;
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
