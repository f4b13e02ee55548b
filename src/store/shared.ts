/**
 * What the instances over one store share besides its records, as the store keeps it: the fault
 * rules, the request journal and the snapshots (in this process, or in PostgreSQL:
 * src/store/postgres/shared.ts). The engine's faults, journal and snapshots work through these shelves.
 */
import type { Used } from '../changes/footprint.js';
import type { ApiName } from '../contract.js';
import type { DbData } from './schema.js';
import { pathHolds } from '../domain/matching.js';
import type { components } from '../generated/sim.js';

type SimSchemas = components['schemas'];

// ---- fault rules

/** A rule's match, its effect and whose it is, as the control API's contract types them (contract/sim.yaml). */
export type FaultMatch = SimSchemas['fault_match'];
export type FaultEffect = SimSchemas['fault_effect'];
/** SMPP rules: PDUs of this kind (a bind of any of the three kinds is `bind`). */
export type SmppFaultPoint = NonNullable<FaultMatch['smpp']>;
/**
 * Whose a rule is: `account`, made with an account's key, matches that account's calls and
 * deliveries alone (`match.account_id`) and only that account lists or removes it; `all`, made with
 * the control API's authority, matches every account (narrowed by `match.account_id`).
 */
export type FaultScope = SimSchemas['fault']['scope'];

export interface FaultRule {
  id: string;
  match: FaultMatch;
  effect: FaultEffect;
  times: number | null;
  probability: number | null;
  fired: number;
  scope: FaultScope;
}

/** Where the rules are kept: in this process, or in the shared store (src/store/postgres/shared.ts). */
export interface FaultRules {
  /** Every rule, in the order added. */
  all(): Promise<FaultRule[]>;
  /**
   * The rules to match a call against, in the order added: their `fired` may lag (`take` is the
   * count that decides).
   */
  live(): Promise<readonly FaultRule[]>;
  /** The rules `live` would answer without reading anything, if it would. */
  cached(): readonly FaultRule[] | undefined;
  count(): Promise<number>;
  add(rule: FaultRule): Promise<void>;
  remove(id: string): Promise<FaultRule | undefined>;
  clear(): Promise<void>;
  /** Counts one firing of the rule if it has any left (across every instance); answers whether it fired. */
  take(rule: FaultRule): Promise<boolean>;
}

// ---- the request journal

/** A call as the journal shows it (`GET /__sim/requests`), as the control API's contract types it. */
export type JournalEntry = SimSchemas['journal_entry'];

/**
 * Which traffic a call was: /api/v1 (`openapi`), /__sim, an SMPP PDU and its answer, or a lifecycle step
 * the clock ran (`step`: method its kind, path its record, the answer what it did).
 */
export type JournalApi = ApiName | 'smpp' | 'step';

export interface JournalFilter {
  api?: 'v1' | 'sim' | 'smpp' | 'step' | 'all';
  /** A template of the contract (every path it routes) or a literal path (src/domain/matching.ts). */
  path?: string;
  method?: string;
  status?: number;
  operation_id?: string;
  account_id?: string;
  /** The calls of this trace (docs/observability.md). */
  trace_id?: string;
  since?: string;
  until?: string;
}

/** What is kept per call: the texts as they crossed the wire, redacted when read (cheap on the hot path). */
export interface Kept extends Omit<JournalEntry, 'request' | 'response'> {
  api: JournalApi;
  headers: Record<string, string>;
  query?: Record<string, string | string[]>;
  requestBody: string | Buffer | Record<string, unknown> | undefined;
  responseText: string | Buffer;
  bytes: number;
}

/** Where the calls are kept, bounded by bytes (oldest out first): this process, or the shared store. */
export interface JournalLog {
  /** Keeps the call and answers it with its id; a log the instances share tells the others of it. */
  append(call: Omit<Kept, 'id'>): Promise<Kept>;
  /** The calls that match, newest first, with ids below `before`; and how many match in all. */
  page(f: JournalFilter, limit: number, before: number): Promise<{ count: number; found: Kept[]; more: boolean }>;
  /** A call another instance kept (told by its id), for live readers. */
  get(id: number): Promise<Kept | undefined>;
  /** The bytes the kept calls count for (the bound `--journal-bytes` holds them under). */
  bytes(): Promise<number>;
  /** Drops every call, or the calls of the accounts `scope` names (`only`), or all but theirs (`except`). */
  clear(scope?: JournalScope): Promise<void>;
}

/** Which calls a clear drops: one account's, or every call but those of some accounts. */
export type JournalScope = { only: string } | { except: readonly string[] };

/** Whether a clear of `scope` drops a call of `accountId`. */
export const dropped = (scope: JournalScope | undefined, accountId: string | null): boolean =>
  !scope || ('only' in scope ? accountId === scope.only : accountId === null || !scope.except.includes(accountId));

// ---- snapshots

export interface Snapshot {
  data: DbData;
  files: Map<string, Buffer>;
  bytes: number;
}

/** Where snapshots are kept: this process's memory, or the shared store (src/store/postgres/shared.ts). */
export interface SnapshotStore {
  /** Each snapshot's name and the bytes of its files, in the order saved. */
  list(): Promise<{ name: string; bytes: number }[]>;
  get(name: string): Promise<Snapshot | undefined>;
  /** Keeps the snapshot under its name, over one of the same name. */
  put(name: string, snapshot: Snapshot): Promise<void>;
}

// ---- coverage kept past its account

/** What one account's calls, deliveries and fault rules covered, by operation and answer. */
export interface Tally {
  /** Calls by operationId, then by status. */
  calls: Record<string, Record<string, number>>;
  /** Deliveries by list (events, cdrs, formats), then by kind: how many went out and how they were answered. */
  deliveries: Record<string, Record<string, { delivered: number; answers: Record<string, number> }>>;
  /** Fault effects fired, by effect (`status 503`, `drop`). */
  faults: Record<string, number>;
  /** What the calls and deliveries used of the contract (the footprint); absent in a tally kept before it was. */
  used?: Used;
}

/** An account's coverage kept when it was reset or removed: the run its sandbox was made for, if any. */
export interface KeptTally {
  account_id: string;
  run: string | null;
  tally: Tally;
}

/** Where kept coverage lives: this process, or the shared store (src/store/postgres/shared.ts). */
export interface TallyStore {
  /** Adds `tally` to what is kept of the account (made when none is). */
  add(kept: KeptTally): Promise<void>;
  /** What is kept of the accounts a filter names: one account, a run's sandboxes, or every account. */
  list(filter: { account_id?: string; run?: string }): Promise<KeptTally[]>;
  clear(): Promise<void>;
}

/** Whether a kept call passes a filter of `GET /__sim/requests` (or of a live reader). */
export function matches(e: Kept, f: JournalFilter): boolean {
  const api = f.api ?? 'v1';
  return (
    (api === 'all' || api === (e.api === 'openapi' ? 'v1' : e.api)) &&
    (!f.path || pathHolds(f.path, e.path)) &&
    (!f.method || e.method === f.method.toUpperCase()) &&
    (f.status === undefined || e.status === f.status) &&
    (!f.operation_id || e.operation_id === f.operation_id) &&
    (!f.trace_id || e.trace_id === f.trace_id) &&
    (!f.account_id || e.account_id === f.account_id) &&
    (!f.since || e.at >= f.since) &&
    (!f.until || e.at <= f.until)
  );
}

/**
 * The calls of no account (a control call made with the admin token, a call whose key is unknown) the
 * journal keeps at most, newest first: they outlive every sandbox, so a hosted server that makes and
 * removes sandboxes for weeks would otherwise fill its journal with them.
 */
export const SERVER_CALLS_KEPT = 1_000;
