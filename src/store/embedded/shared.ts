/**
 * The side stores of one process (the embedded store's, and the in-memory one's): the fault rules,
 * the request journal, snapshots and kept coverage, as src/store/shared.ts declares them. A shared
 * store's (several instances over PostgreSQL) are in src/store/postgres/shared.ts; the composition
 * root picks one set (src/server.ts).
 */
import {
  dropped,
  matches,
  SERVER_CALLS_KEPT,
  type FaultRule,
  type FaultRules,
  type JournalFilter,
  type JournalLog,
  type JournalScope,
  type Kept,
  type KeptTally,
  type Snapshot,
  type SnapshotStore,
  type Tally,
  type TallyStore,
} from '../shared.js';

/** The rules of one process. */
export class MemoryFaultRules implements FaultRules {
  private rules: FaultRule[] = [];

  async all(): Promise<FaultRule[]> {
    return this.rules.map((r) => ({ ...r }));
  }

  async live(): Promise<readonly FaultRule[]> {
    return this.rules;
  }

  cached(): readonly FaultRule[] {
    return this.rules;
  }

  async count(): Promise<number> {
    return this.rules.length;
  }

  async add(rule: FaultRule): Promise<void> {
    this.rules.push({ ...rule });
  }

  async remove(id: string): Promise<FaultRule | undefined> {
    const rule = this.rules.find((r) => r.id === id);
    this.rules = this.rules.filter((r) => r.id !== id);
    return rule && { ...rule };
  }

  async clear(): Promise<void> {
    this.rules = [];
  }

  async take(rule: FaultRule): Promise<boolean> {
    const kept = this.rules.find((r) => r.id === rule.id);
    if (!kept || (kept.times !== null && kept.fired >= kept.times)) return false;
    kept.fired++;
    return true;
  }
}

/** The journal of one process. */
export class MemoryJournalLog implements JournalLog {
  /** The kept calls, oldest first; dropped ones leave an empty slot until the array is compacted. */
  private entries: (Kept | undefined)[] = [];
  /** Entries before this index were dropped (compacted now and then, not on every call). */
  private head = 0;
  /** Empty slots (dropped entries), before `head` or not. */
  private holes = 0;
  /** The slots of the calls of no account, oldest first. */
  private serverSlots: number[] = [];
  private heldBytes = 0;
  private next = 1;

  constructor(private readonly limitBytes: number) {}

  async append(call: Omit<Kept, 'id'>): Promise<Kept> {
    const kept: Kept = { id: this.next++, ...call };
    this.entries.push(kept);
    this.heldBytes += kept.bytes;
    if (kept.account_id === null) this.serverSlots.push(this.entries.length - 1);
    while (this.serverSlots.length > SERVER_CALLS_KEPT) this.drop(this.serverSlots.shift() ?? 0);
    while (this.heldBytes > this.limitBytes && this.head < this.entries.length - 1) this.drop(this.head++);
    while ((this.serverSlots[0] ?? Infinity) < this.head) this.serverSlots.shift();
    if (this.holes > 1024 && this.holes > this.entries.length / 2) this.compact();
    return kept;
  }

  /** Lets the entry of a slot go (its slot stays empty until compacted). */
  private drop(slot: number): void {
    const e = this.entries[slot];
    if (!e) return;
    this.heldBytes -= e.bytes;
    this.entries[slot] = undefined;
    this.holes++;
  }

  /** The kept entries alone, in order. */
  private compact(): void {
    this.entries = this.entries.filter((e) => e !== undefined);
    this.head = 0;
    this.holes = 0;
    this.serverSlots = [];
    this.entries.forEach((e, i) => e?.account_id === null && this.serverSlots.push(i));
  }

  async page(f: JournalFilter, limit: number, before: number) {
    let count = 0;
    let more = false;
    const found: Kept[] = [];
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const e = this.entries[i];
      if (!e || !matches(e, f)) continue;
      count++;
      if (e.id >= before) continue;
      if (found.length < limit) found.push(e);
      else more = true;
    }
    return { count, found, more };
  }

  async get(): Promise<Kept | undefined> {
    return undefined;
  }

  async bytes(): Promise<number> {
    return this.heldBytes;
  }

  async clear(scope?: JournalScope): Promise<void> {
    const kept = scope
      ? this.entries.slice(this.head).filter((e): e is Kept => e !== undefined && !dropped(scope, e.account_id))
      : [];
    this.entries = kept;
    this.compact();
    this.heldBytes = kept.reduce((sum, e) => sum + e.bytes, 0);
  }
}

/** Snapshots in memory. Rows are frozen, so a copy shares them with the live state and costs the lists. */
export class MemorySnapshotStore implements SnapshotStore {
  private readonly saved = new Map<string, Snapshot>();

  async list(): Promise<{ name: string; bytes: number }[]> {
    return [...this.saved].map(([name, s]) => ({ name, bytes: s.bytes }));
  }

  async get(name: string): Promise<Snapshot | undefined> {
    return this.saved.get(name);
  }

  async put(name: string, snapshot: Snapshot): Promise<void> {
    this.saved.set(name, snapshot);
  }
}

/**
 * Kept tallies in this process, oldest first, each as its JSON text: a tally's counts by status are
 * objects with integer keys, which V8 backs with an array as long as the largest status (2.5 KB for a
 * `201`); the text of a tally is a tenth of that, and is read only when coverage is asked for.
 */
export class MemoryTallyStore implements TallyStore {
  private readonly kept = new Map<string, { run: string | null; text: string }>();

  constructor(
    /** The accounts whose tallies are kept at most; the oldest kept goes first. */
    private readonly bound: number,
    /** How a tally adds to another (the engine's addTally). */
    private readonly addTo: (into: Tally, from: Tally) => Tally,
  ) {}

  async add(k: KeptTally): Promise<void> {
    const was = this.kept.get(k.account_id);
    this.kept.delete(k.account_id);
    const tally = was ? this.addTo(JSON.parse(was.text) as Tally, k.tally) : k.tally;
    this.kept.set(k.account_id, { run: k.run ?? was?.run ?? null, text: JSON.stringify(tally) });
    for (const id of this.kept.keys()) {
      if (this.kept.size <= this.bound) break;
      this.kept.delete(id);
    }
  }

  async list(f: { account_id?: string; run?: string }): Promise<KeptTally[]> {
    const found: KeptTally[] = [];
    for (const [account_id, { run, text }] of this.kept)
      if ((f.account_id === undefined || account_id === f.account_id) && (f.run === undefined || run === f.run))
        found.push({ account_id, run, tally: JSON.parse(text) as Tally });
    return found;
  }

  async clear(): Promise<void> {
    this.kept.clear();
  }
}
