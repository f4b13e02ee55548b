/**
 * The bounds of what callers can make a dipswitch hold (docs/running.md, "Reference: bounds"), as one table: each row is
 * a bound's name, its flag, environment variable and config key, its default and its least value.
 * The server's defaults and the command's flags are read from it, so a new bound is one row. The
 * defaults suit a shared demo sandbox on a small machine.
 */
export const LIMIT_FLAGS = [
  {
    key: 'journalBytes',
    flag: '--journal-bytes <n>',
    env: 'JOURNAL_BYTES',
    help: 'bytes the call journal keeps',
    default: 64 * 1024 * 1024,
  },
  { key: 'snapshots', flag: '--max-snapshots <n>', env: 'MAX_SNAPSHOTS', help: 'snapshots kept', default: 20 },
  {
    key: 'snapshotBytes',
    flag: '--snapshot-bytes <n>',
    env: 'SNAPSHOT_BYTES',
    help: 'bytes all snapshots may hold',
    default: 256 * 1024 * 1024,
  },
  { key: 'sandboxes', flag: '--max-sandboxes <n>', env: 'MAX_SANDBOXES', help: 'sandbox accounts', default: 10_000 },
  {
    key: 'headersTimeoutMs',
    flag: '--headers-timeout <ms>',
    env: 'HEADERS_TIMEOUT',
    help: 'ms a request has to send its headers',
    default: 10_000,
  },
  {
    key: 'requestTimeoutMs',
    flag: '--request-timeout <ms>',
    env: 'REQUEST_TIMEOUT',
    help: 'ms a request has to arrive whole',
    default: 60_000,
  },
  {
    key: 'connections',
    flag: '--max-connections <n>',
    env: 'MAX_CONNECTIONS',
    help: 'open connections',
    default: 1_000,
  },
  {
    key: 'smppUnbound',
    flag: '--smpp-max-unbound <n>',
    env: 'SMPP_MAX_UNBOUND',
    help: 'SMPP connections not yet bound',
    default: 100,
  },
  {
    key: 'smppBindTimeoutMs',
    flag: '--smpp-bind-timeout <ms>',
    env: 'SMPP_BIND_TIMEOUT',
    help: 'ms an SMPP connection has to bind',
    default: 10_000,
  },
  {
    key: 'smppBindsPerKey',
    flag: '--smpp-max-binds <n>',
    env: 'SMPP_MAX_BINDS',
    help: 'SMPP binds of one key',
    default: 10,
  },
  {
    key: 'smppEnquireLinkMs',
    flag: '--smpp-enquire-link <ms>',
    env: 'SMPP_ENQUIRE_LINK',
    help: 'ms a bind may be silent before dipswitch sends it enquire_link (unanswered in 5 s: closed)',
    default: 30_000,
  },
  {
    key: 'streamKeepaliveMs',
    flag: '--stream-keepalive <ms>',
    env: 'STREAM_KEEPALIVE',
    help: 'ms between the comment lines that keep a live stream (journal, listener) open through a proxy',
    default: 15_000,
  },
  {
    key: 'accountInFlight',
    flag: '--account-in-flight <n>',
    env: 'ACCOUNT_IN_FLIGHT',
    help: "calls of one account in the works at once, and let in a turn of the event loop (more wait their account's turn)",
    default: 8,
  },
  {
    key: 'callsInFlight',
    flag: '--calls-in-flight <n>',
    env: 'CALLS_IN_FLIGHT',
    help: 'calls of every account in the works at once (more wait, each account in turn)',
    default: 32,
  },
  {
    key: 'accountBacklog',
    flag: '--account-backlog <n>',
    env: 'ACCOUNT_BACKLOG',
    help: 'calls of one account waiting for their turn (one more is answered 503 backlog_full at once)',
    default: 1_000,
  },
  {
    key: 'storeConnectTimeoutMs',
    flag: '--store-connect-timeout <ms>',
    env: 'STORE_CONNECT_TIMEOUT',
    help: 'ms a new PostgreSQL connection may take to be made',
    default: 5_000,
  },
  {
    key: 'storeStatementTimeoutMs',
    flag: '--store-statement-timeout <ms>',
    env: 'STORE_STATEMENT_TIMEOUT',
    help: 'ms a PostgreSQL statement may run (PostgreSQL cancels it; unanswered 1 s later, dipswitch gives up on it)',
    default: 10_000,
  },
  {
    key: 'storeLockTimeoutMs',
    flag: '--store-lock-timeout <ms>',
    env: 'STORE_LOCK_TIMEOUT',
    help: "ms a PostgreSQL statement may wait for a lock (an account's, held by another instance)",
    default: 10_000,
  },
  {
    key: 'storeIdleTimeoutMs',
    flag: '--store-idle-timeout <ms>',
    env: 'STORE_IDLE_TIMEOUT',
    help: 'ms a PostgreSQL transaction may sit idle before the database ends it and frees its locks',
    default: 10_000,
  },
] as const satisfies readonly { key: string; flag: string; env: string; help: string; default: number }[];

/** Every bound is a whole number of at least 1. */
export const LIMIT_MIN = 1;

export type LimitKey = (typeof LIMIT_FLAGS)[number]['key'];
export type Limits = Record<LimitKey, number>;

export const DEFAULT_LIMITS: Limits = Object.fromEntries(LIMIT_FLAGS.map((l) => [l.key, l.default])) as Limits;

/** How many problems one `invalid_parameter` answer lists; the rest are counted. */
export const ERRORS_PER_ANSWER = 100;

/** How much of a receiver's answer a delivery reads (an HTTP route callback's answer is a body). */
export const RECEIVER_ANSWER_BYTES = 1024 * 1024;
