/** The PostgreSQL schema of the store, its migrations, and the texts of the statements units of work share. */
import type { PageWindow } from '../page.js';
import { COLLECTION_NAMES, type AnyRow, type CollectionName, type Collections } from '../schema.js';

export const table = (name: CollectionName) => `c_${name}`;

/**
 * Every collection's table and its list index, made where missing: run by the first migration and
 * at every start after the migrations, so a collection added to schema.ts needs no migration of its own.
 */
export const COLLECTION_TABLES = COLLECTION_NAMES.map(
  (name) =>
    `CREATE TABLE IF NOT EXISTS ${table(name)} (id text PRIMARY KEY, account_id text NOT NULL, sort text COLLATE "C" NOT NULL, row text NOT NULL);
     CREATE INDEX IF NOT EXISTS ${table(name)}_list ON ${table(name)} (account_id, sort);`,
).join('\n');

/**
 * The migrations, in order; each runs once, in its own transaction: SQL, or the index keys of a
 * collection derived again (`reindex`: an index added to schema.ts for rows that exist).
 */
export const MIGRATIONS: (string | { reindex: CollectionName })[] = [
  [
    COLLECTION_TABLES,
    `CREATE TABLE row_index (collection text NOT NULL, index_name text NOT NULL, key text NOT NULL, id text NOT NULL,
       sort text COLLATE "C" NOT NULL, is_unique boolean NOT NULL);
     CREATE UNIQUE INDEX row_index_unique ON row_index (collection, index_name, key) WHERE is_unique;
     CREATE INDEX row_index_lookup ON row_index (collection, index_name, key, sort);
     CREATE INDEX row_index_row ON row_index (collection, id);
     CREATE TABLE files (id text PRIMARY KEY, bytes bytea NOT NULL);
     CREATE TABLE seqs (name text PRIMARY KEY, value bigint NOT NULL);
     INSERT INTO seqs VALUES ('steps', 0), ('sandboxes', 0);`,
  ].join('\n'),
  // what the instances share besides the records (src/store/postgres/shared.ts)
  `CREATE TABLE faults (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, rule text NOT NULL, fired integer NOT NULL);
   CREATE UNLOGGED TABLE journal (id bigserial PRIMARY KEY, api text NOT NULL, at text COLLATE "C" NOT NULL,
     method text NOT NULL, path text NOT NULL, operation_id text, account_id text, status integer NOT NULL,
     bytes integer NOT NULL, upto bigint NOT NULL, entry text NOT NULL);
   CREATE INDEX journal_upto ON journal (upto);
   CREATE UNLOGGED TABLE journal_bytes (one boolean PRIMARY KEY, total bigint NOT NULL);
   CREATE TABLE snapshots (seq bigserial PRIMARY KEY, name text NOT NULL UNIQUE, bytes bigint NOT NULL, data text NOT NULL);
   CREATE TABLE snapshot_files (name text NOT NULL, id text NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (name, id));`,
  // a sandbox's index (the live sandboxes counted without reading every account) and an API key's SMPP system id (binds)
  { reindex: 'accounts' },
  { reindex: 'api_keys' },
  // messages waiting for an SMPP bind
  { reindex: 'deliveries' },
  // the fault rules' version: each instance keeps a copy of the rules until it moves (shared.ts)
  "INSERT INTO seqs VALUES ('faults', 0) ON CONFLICT (name) DO NOTHING",
  // each list's length, kept as its rows come and go: a page's count is read, not counted
  `CREATE TABLE IF NOT EXISTS list_counts (collection text NOT NULL, account_id text NOT NULL, n bigint NOT NULL,
     PRIMARY KEY (collection, account_id));
   DELETE FROM list_counts;
   ${countLists()}`,
  // coverage kept past its account (shared.ts): one tally an account, the oldest dropped past the bound
  `CREATE TABLE IF NOT EXISTS tallies (account_id text PRIMARY KEY, run text, seq bigserial NOT NULL, tally text NOT NULL);
   CREATE INDEX IF NOT EXISTS tallies_run ON tallies (run);
   CREATE INDEX IF NOT EXISTS tallies_seq ON tallies (seq);`,
  // the journal's calls of no account, kept to the newest few (shared.ts): found without reading the others
  'CREATE INDEX IF NOT EXISTS journal_server ON journal (id) WHERE account_id IS NULL',
  // a call a `drop` fault answered has no status
  'ALTER TABLE journal ALTER COLUMN status DROP NOT NULL',
  // a call's trace (docs/observability.md), which a page of the journal may ask for
  `ALTER TABLE journal ADD COLUMN IF NOT EXISTS trace_id text;
   CREATE INDEX IF NOT EXISTS journal_trace ON journal (trace_id) WHERE trace_id IS NOT NULL`,
  // a brand found by its registry id (the registry's requests), not by reading the account's brands
  { reindex: 'brands' },
  // slots held over every instance (slots.ts): an account's listeners
  `CREATE TABLE IF NOT EXISTS slots (id text PRIMARY KEY, kind text NOT NULL, account_id text NOT NULL,
     kept_at timestamptz NOT NULL);
   CREATE INDEX IF NOT EXISTS slots_account ON slots (kind, account_id)`,
];

/** Counts every list (of every collection and account) into list_counts, emptied first. */
export function countLists(): string {
  return `INSERT INTO list_counts ${COLLECTION_NAMES.map(
    (name) => `SELECT '${name}', account_id, count(*) FROM ${table(name)} GROUP BY account_id`,
  ).join(' UNION ALL ')}`;
}

/** One more row in an account's list (the account as an SQL literal). */
export const countedIn = (name: CollectionName, account: string): string =>
  `INSERT INTO list_counts VALUES ('${name}', ${account}, 1)
   ON CONFLICT (collection, account_id) DO UPDATE SET n = list_counts.n + 1`;

/** Removes a row (its id an SQL literal), and counts it out of its account's list if it was there. */
export const removeCounted = (name: CollectionName, id: string): string =>
  `WITH gone AS (DELETE FROM ${table(name)} WHERE id = ${id} RETURNING account_id)
   UPDATE list_counts l SET n = l.n - 1 FROM gone WHERE l.collection = '${name}' AND l.account_id = gone.account_id`;

/** A row's place in its list: `inserted_at` then id, or for steps the due time then the order scheduled. */
export function sortOf(name: CollectionName, row: AnyRow): string {
  if (name === 'steps') {
    const step = row as Collections['steps'];
    return `${step.data.at}\u0001${String(step.seq).padStart(15, '0')}`;
  }
  return `${row.data.inserted_at}\u0001${row.data.id}`;
}

/**
 * PostgreSQL's text holds no NUL, which composite keys (schema.ts `key`) and callers' strings may:
 * a key is stored with `\` doubled and NUL as `\0` (one stored text per key, and back).
 */
export const stored = (k: string): string => k.replace(/\\/g, '\\\\').replace(/\u0000/g, '\\0');

/** Every row of every collection in one round trip, by collection (its place in COLLECTION_NAMES) and list order. */
export const EXPORT_STATE = `${COLLECTION_NAMES.map((name, c) => `SELECT ${c} AS c, sort, row FROM ${table(name)}`).join(' UNION ALL ')}
  ORDER BY c, sort`;

/**
 * The statement of a page ($1 the account, $2 and $3 the sort keys after and before which
 * the page lies, or null, $4 its size): the list's count (as list_counts keeps it), the place of the
 * window's ends in the list as shown (`lo` rows shown up to `after`, `hi` before `before`), and the
 * page's rows in the order shown, as one JSON array (each row is JSON text: joined, they parse at
 * once, where a text[] is parsed in JavaScript). A window with a key or without is a text of its own: the statement's one
 * plan (plan_cache_mode, store.ts) reads the page by its keys from the list's index.
 */
export function pageSql(name: CollectionName, w: PageWindow): string {
  const at = { account: '$1', after: '$2', before: '$3', size: '$4' };
  const t = table(name);
  // in the order shown: after a key, before a key, up to a key
  const [gt, lt, upTo] = w.newestFirst ? ['<', '>', '>='] : ['>', '<', '<='];
  const inner = w.newestFirst !== w.fromEnd ? 'DESC' : 'ASC';
  const shown = w.newestFirst ? 'DESC' : 'ASC';
  const [after, before] = [`${at.after}::text`, `${at.before}::text`];
  const mine = `FROM ${t} WHERE account_id = ${at.account}`;
  const n = `(SELECT n FROM list_counts WHERE collection = '${name}' AND account_id = ${at.account})`;
  return `SELECT coalesce(${n}, 0) AS n,
    CASE WHEN ${after} IS NULL THEN 0 ELSE (SELECT count(*) ${mine} AND sort ${upTo} ${after}) END AS lo,
    CASE WHEN ${before} IS NULL THEN NULL ELSE (SELECT count(*) ${mine} AND sort ${lt} ${before}) END AS hi,
    (SELECT '[' || coalesce(string_agg(p.row, ',' ORDER BY p.sort ${shown}), '') || ']' FROM (
       SELECT sort, row ${mine}${w.after ? ` AND sort ${gt} ${after}` : ''}${w.before ? ` AND sort ${lt} ${before}` : ''}
       ORDER BY sort ${inner} LIMIT ${at.size}) p) AS rows`;
}

/**
 * The rows a caller's key names (CallerRows), in one round trip: the API key of a unique index's key
 * ($1 the index, $2 the key as stored) with its user and its account's clock.
 */
export const CALLER_SQL = `SELECT k.row AS key, u.row AS user_row, c.row AS clock
  FROM row_index i
  JOIN ${table('api_keys')} k ON k.id = i.id
  LEFT JOIN ${table('users')} u ON u.id = k.row::json ->> 'user_id' AND u.account_id = k.account_id
  LEFT JOIN ${table('clocks')} c ON c.id = k.account_id
  WHERE i.collection = 'api_keys' AND i.index_name = $1 AND i.key = $2`;

/** Advisory lock keys: the whole state (shared by account work, exclusive for whole-state work), and migrations. */
const STATE_LOCK = 7_406_001;
export const MIGRATION_LOCK = 7_406_002;

/** An account's lock (two keys: this one, and the hash of its id), given its id as an SQL expression. */
const accountLock = (account: string) => `pg_advisory_xact_lock(7406, hashtext(${account}))`;

/** BEGIN, and the lock of whole-state work: the whole state's, exclusive. */
export const BEGIN_WHOLE_STATE = `BEGIN; SELECT pg_advisory_xact_lock(${STATE_LOCK})`;

/** BEGIN, and the locks of an account's work: the whole state's shared, then the account's (its id a literal). */
export const beginAccount = (account: string): string =>
  `BEGIN; SELECT pg_advisory_xact_lock_shared(${STATE_LOCK}), ${accountLock(account)}`;
