/**
 * Sandboxes (`POST /__sim/accounts`): a fresh isolated account with its own users, keys, numbers,
 * shared resource group and clock, made in one unit of work; and snapshots of the whole state.
 *
 * Sandbox numbers come from a counter, never by retry: sandbox k gets the ten numbers of block k
 * (src/domain/sandbox_numbers.ts).
 */
import type { Ids, Random } from '../deps.js';
import { newDid } from '../domain/numbers.js';
import { SANDBOX_BLOCKS, sandboxNumbers } from '../domain/sandbox_numbers.js';
import { hashSecret, token } from '../domain/secrets.js';
import { DomainError } from '../domain/errors.js';
import type { ApiKeyRow, Role } from '../domain/rows.js';
import type { DbData } from '../store/schema.js';
import { namedFiles } from '../store/files.js';
import type { UnitOfWork } from '../store/store.js';
import type { Clock } from '../engine/clock.js';
import type { SnapshotStore } from '../store/shared.js';

export type { Snapshot, SnapshotStore } from '../store/shared.js';

export interface Sandbox {
  id: string;
  name: string;
  /** The run it was made for, if one was named: its coverage is counted with the run's. */
  run?: string;
  keys: { admin: string; readonly: string; standard: string };
  numbers: string[];
}

/** Ten numbers no account holds, from the next free block. */
async function freeNumbers(store: UnitOfWork): Promise<{ block: number; numbers: string[] }> {
  for (;;) {
    const block = await store.nextSeq('sandboxes');
    if (block >= SANDBOX_BLOCKS) {
      throw new DomainError('limit_reached', [
        {
          detail: `Every block of sandbox numbers (${SANDBOX_BLOCKS.toLocaleString('en')}) has been used; remove the store to start over.`,
        },
      ]);
    }
    const numbers = sandboxNumbers(block);
    // a block someone ordered into by hand is passed over, once: the counter has moved on
    let free = true;
    for (const n of numbers) if (await store.numbers.taken(n)) free = false;
    if (free) return { block, numbers };
  }
}

/** Makes sandbox `id` (an unused account id) in whole-state work. */
export async function createSandbox(
  store: UnitOfWork,
  sources: { ids: Ids; random: Random },
  clock: Clock,
  id: string,
  name: string | undefined,
  limit: number,
  run?: string,
): Promise<Sandbox> {
  const live = (await store.accounts.sandboxes()).length;
  if (live >= limit) {
    throw new DomainError('limit_reached', [
      { detail: `At most ${limit} sandboxes may exist at once (--max-sandboxes); delete one first.` },
    ]);
  }
  const { block } = await freeNumbers(store);
  return fillSandbox(store, sources, clock, { id, name: name ?? `Sandbox ${id.slice(0, 8)}`, block, run });
}

/**
 * A sandbox as it is made: its account, users, keys (the ones given, so a reset keeps them), its
 * block's ten numbers and a shared resource group. The account's rows must not exist yet.
 */
export async function fillSandbox(
  store: UnitOfWork,
  sources: { ids: Ids; random: Random },
  clock: Clock,
  made: { id: string; name: string; block: number; keys?: Sandbox['keys']; run?: string },
): Promise<Sandbox> {
  const { ids, random } = sources;
  const { id, name: label, block } = made;
  const numbers = sandboxNumbers(block);
  const now = clock.iso();
  const account = await store.accounts.insert({
    account_id: id,
    sandbox_block: block,
    sandbox_keys: null,
    sandbox_run: made.run ?? null,
    data: { id, name: label, inserted_at: now },
  });
  const user = (role: Role, first: string) =>
    store.users.insert({
      account_id: id,
      role,
      suspended: false,
      password_hash: null,
      data: {
        id: ids.uuid(),
        email: `${first.toLowerCase()}.${id.slice(0, 8)}@sandbox.dipswitch.test`,
        first_name: first,
        last_name: 'Sandbox',
        title: null,
        address: null,
        inserted_at: now,
        updated_at: now,
      },
    });
  const key = (userId: string | null, keyName: string, given: string | undefined): Promise<ApiKeyRow> =>
    store.apiKeys.insert({
      account_id: id,
      user_id: userId,
      secret_hash: hashSecret(token(random, 24)),
      smpp_secret_hash: hashSecret(token(random, 6)),
      data: {
        active: true,
        id: ids.uuid(),
        identity: `sbx_${token(random, 9)}`,
        inserted_at: now,
        updated_at: now,
        key: given ?? `sbx_${token(random, 24)}`,
        name: keyName,
        notes: null,
        smpp_system_id: `s${random.bytes(6).toString('hex').slice(0, 11)}`,
      },
    });
  const admin = await key((await user('admin', 'Ada')).data.id, 'Sandbox admin', made.keys?.admin);
  const readonly = await key((await user('read_only', 'Rita')).data.id, 'Sandbox read-only', made.keys?.readonly);
  const standard = await key(null, 'Sandbox standard', made.keys?.standard);
  const keys = { admin: admin.data.key, readonly: readonly.data.key, standard: standard.data.key };
  await store.accounts.update(account, (d) => {
    d.sandbox_keys = keys;
  });
  for (const number of numbers) {
    await store.numbers.insert({
      account_id: id,
      switch_id: null,
      api_key_id: null,
      auto_response_id: null,
      campaign_id: null,
      data: newDid({ id: ids.uuid(), number, rate_center: 'CHICAGO', state: 'IL', inserted_at: now, updated_at: now }),
    });
  }
  await store.sharedResourceGroups.insert({
    account_id: id,
    data: { id: ids.uuid(), name: `${label} group`, inserted_at: now },
  });
  return { id, name: label, ...(made.run ? { run: made.run } : {}), keys, numbers };
}

export interface SnapshotLimits {
  /** How many snapshots may be kept (`--max-snapshots`). */
  count: number;
  /** What their files may take together, in bytes (`--snapshot-bytes`). */
  bytes: number;
}

/** Runs `fn` in whole-state work (the store's `{ global: true }`). */
export type WholeStateRun = <T>(fn: (store: UnitOfWork) => Promise<T>) => Promise<T>;

/** The store's name of an account's snapshot: never a name of the whole state's (their pattern has no slash). */
const snapshotKey = (name: string, owner: string | undefined): string => (owner ? `account/${owner}/${name}` : name);

/** The store's snapshots of one account (`owner`), or of the whole state, by the names they were saved under. */
const ownedBy = (owner: string | undefined) => (s: { name: string; bytes: number }) => {
  if (!owner) return s.name.includes('/') ? [] : [s];
  const prefix = snapshotKey('', owner);
  return s.name.startsWith(prefix) ? [{ ...s, name: s.name.slice(prefix.length) }] : [];
};

/**
 * Named copies of the whole state, or of one account's records (`owner`: a snapshot saved with
 * the account's key): records (clocks and schedule among them) and document files, kept up to a
 * count for each owner and a size of files for all of them together.
 */
export class Snapshots {
  constructor(
    private readonly limits: SnapshotLimits,
    private readonly snapshots: SnapshotStore,
  ) {}

  /**
   * Saves a copy read in whole-state work (`run`), so the copy is one moment of the state; the store is
   * read before it and written after it, outside its lock (a snapshot store shared by instances takes connections
   * of its own, which the account work waiting for that lock may hold). Past a limit:
   * 422 `limit_reached`.
   */
  async save(run: WholeStateRun, name: string, owner?: string): Promise<void> {
    const all = await this.snapshots.list();
    const key = snapshotKey(name, owner);
    const others = all.filter((s) => s.name !== key);
    if (others.flatMap(ownedBy(owner)).length >= this.limits.count) {
      throw new DomainError('limit_reached', [
        { detail: `At most ${this.limits.count} snapshots are kept; restore or reset, or save over an existing name.` },
      ]);
    }
    const budget = this.limits.bytes - others.reduce((sum, s) => sum + s.bytes, 0);
    const snapshot = await run(async (store) => {
      const state = owner ? await store.accountState(owner) : await store.exportState();
      // a step's claim belongs to the instance running it now, not to the copy
      const data = { ...state, steps: (state.steps ?? []).map(({ claim: _claim, ...step }) => step) } as DbData;
      const files = new Map<string, Buffer>();
      let bytes = 0;
      for (const id of namedFiles(data.documents ?? [], data.bulk_dip_tasks ?? [])) {
        const file = await store.files.get(id);
        if (!file) continue;
        bytes += file.length;
        if (bytes > budget) {
          throw new DomainError('limit_reached', [
            { detail: `The snapshots' files may take ${this.limits.bytes} bytes together; this one would pass that.` },
          ]);
        }
        files.set(id, file);
      }
      return { data, files, bytes };
    });
    await this.snapshots.put(key, snapshot);
  }

  /** The snapshots of one account (`owner`), or of the whole state. */
  async list(owner?: string): Promise<{ name: string; bytes: number }[]> {
    return (await this.snapshots.list()).flatMap(ownedBy(owner));
  }

  /**
   * Restores a copy in whole-state work (`run`), read from the store before it (as `save` says why):
   * the whole state, or the records of the account it was saved for, every other account untouched.
   */
  async restore(run: WholeStateRun, name: string, owner?: string): Promise<boolean> {
    const snap = await this.snapshots.get(snapshotKey(name, owner));
    if (!snap) return false;
    await run(async (store) => {
      for (const [id, bytes] of snap.files) await store.files.put(id, bytes);
      if (owner) await store.replaceAccount(owner, snap.data);
      else await store.replaceAll(snap.data);
    });
    return true;
  }
}
