/**
 * Metrics for a hosted server, in Prometheus's text format (prom-client, the ecosystem's
 * convention): calls by API, operation and status with a latency histogram; delivery attempts by
 * protocol and outcome; SMPP binds and PDUs; and, read when scraped, the journal's bytes, the
 * sandboxes, the store's size and the scheduler's backlog. Each server has a registry of its own
 * (several run in one process in tests).
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What a scrape reads from the running server. */
export interface MetricSources {
  journalBytes(): Promise<number>;
  sandboxes(): Promise<number>;
  storeBytes(): Promise<number | undefined>;
  steps(): Promise<{ pending: number; due: number }>;
  smppBinds(): number;
}

/** One account's calls as admission holds them (src/http/admission.ts). */
export interface AccountQueue {
  account: string;
  running: number;
  waiting: number;
  refused: number;
  meanWaitMs: number;
}

export class Metrics {
  readonly registry = new Registry();
  /** The accounts' queues, read when scraped: set by the app that admits the calls. */
  queues: () => AccountQueue[] = () => [];
  /** The bounds admission holds the calls to (src/http/admission.ts): set by the app that admits them. */
  admissionLimits: () => { perAccount: number; total: number; backlog: number; rate?: number } | undefined = () =>
    undefined;
  private readonly calls: Counter<'api' | 'operation' | 'status'>;
  private readonly latency: Histogram<'api' | 'operation'>;
  private readonly attempts: Counter<'protocol' | 'kind' | 'outcome'>;
  private readonly pdus: Counter<'command' | 'status'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.calls = new Counter({
      name: 'dipswitch_calls_total',
      help: 'Calls answered, by API (v1, sim), operation and HTTP status.',
      labelNames: ['api', 'operation', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'dipswitch_call_duration_seconds',
      help: 'Time from a call arriving to its answer, by API and operation.',
      labelNames: ['api', 'operation'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.attempts = new Counter({
      name: 'dipswitch_delivery_attempts_total',
      help: 'Delivery attempts, by protocol (HTTP, SFTP, SMPP, MM4), kind and outcome.',
      labelNames: ['protocol', 'kind', 'outcome'],
      registers,
    });
    this.pdus = new Counter({
      name: 'dipswitch_smpp_pdus_total',
      help: 'SMPP PDUs exchanged, by command and command_status (-1: no answer).',
      labelNames: ['command', 'status'],
      registers,
    });
    const gauge = (name: string, help: string, read: () => Promise<number | undefined> | number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const value = await read();
          if (value !== undefined) this.set(value);
        },
      });
    const perAccount = (name: string, help: string, read: (q: AccountQueue) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['account'],
        registers,
        collect: () => {
          const found = this.registry.getSingleMetric(name) as Gauge<'account'>;
          found.reset();
          for (const q of this.queues()) found.set({ account: q.account }, read(q));
        },
      });
    perAccount('dipswitch_account_calls_waiting', "An account's calls waiting for their turn now.", (q) => q.waiting);
    perAccount(
      'dipswitch_account_calls_refused_total',
      "An account's calls refused past its backlog (503 backlog_full), since the start.",
      (q) => q.refused,
    );
    perAccount(
      'dipswitch_account_wait_seconds_mean',
      "The mean time an account's calls that waited for their turn waited.",
      (q) => q.meanWaitMs / 1000,
    );
    gauge('dipswitch_smpp_binds', 'SMPP binds open on this instance.', () => sources.smppBinds());
    gauge('dipswitch_journal_bytes', 'Bytes the request journal holds (bounded by --journal-bytes).', () =>
      sources.journalBytes(),
    );
    gauge('dipswitch_sandboxes', 'Sandbox accounts that exist.', () => sources.sandboxes());
    gauge('dipswitch_store_bytes', "The store's size on disk (the embedded store's files, or the database).", () =>
      sources.storeBytes(),
    );
    gauge(
      'dipswitch_steps_pending',
      'Steps waiting on the accounts’ clocks (lifecycles, deliveries, retries).',
      async () => (await sources.steps()).pending,
    );
    gauge(
      'dipswitch_steps_due',
      'Accounts on a real clock whose earliest step’s time has come and that the scheduler has not run yet.',
      async () => (await sources.steps()).due,
    );
  }

  /** A call answered. */
  /** A call answered; `status` null: not answered at all (a `drop` fault). */
  call(api: string, operation: string | null, status: number | null, seconds: number): void {
    const op = operation ?? 'none';
    this.calls.inc({ api, operation: op, status: status === null ? 'none' : String(status) });
    this.latency.observe({ api, operation: op }, seconds);
  }

  /** A delivery attempt made, by the transport of its request's variant (its protocol: HTTP, SFTP, SMPP, MM4, CHAT). */
  attempt(transport: string, kind: string, outcome: string): void {
    this.attempts.inc({ protocol: transport.toUpperCase(), kind, outcome });
  }

  /** An SMPP PDU exchanged with a bind. */
  pdu(command: string, status: number | null): void {
    this.pdus.inc({ command, status: String(status ?? -1) });
  }

  /** The text of a scrape. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
