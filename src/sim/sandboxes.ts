/**
 * Sandboxes (`POST /__sim/accounts`): a fresh isolated account with its own users, keys, numbers,
 * shared resource group and clock, made in one commit; and snapshots of the whole state.
 */
import type { Deps } from '../deps.js';
import { hashSecret, token } from '../domain/secrets.js';
import type { ApiKeyRow, DbData, Role } from '../store/rows.js';

export interface Sandbox {
  id: string;
  name: string;
  keys: { admin: string; readonly: string; standard: string };
  numbers: string[];
}

/** Ten free numbers in one exchange nobody uses yet. */
function freeNumbers(deps: Deps): string[] {
  const taken = new Set(deps.store.numbers.filter(() => true).map((n) => n.data.number));
  for (;;) {
    const exchange = `+1312${200 + Math.floor(deps.random.float() * 800)}`;
    const numbers = Array.from({ length: 10 }, (_, i) => `${exchange}${String(100 + i).padStart(4, '0')}`);
    if (numbers.every((n) => !taken.has(n))) return numbers;
  }
}

export async function createSandbox(deps: Deps, name?: string): Promise<Sandbox> {
  const { store, ids, random, clock } = deps;
  const id = ids.uuid();
  const now = clock.iso();
  const label = name ?? `Sandbox ${id.slice(0, 8)}`;
  store.insertAccount({ id, name: label, inserted_at: now });
  const user = (role: Role, first: string) => store.users.insert({
    account_id: id, role, suspended: false, password_hash: null,
    data: { id: ids.uuid(), email: `${first.toLowerCase()}.${id.slice(0, 8)}@sandbox.dipswitch.test`, first_name: first, last_name: 'Sandbox', title: null, address: null, inserted_at: now, updated_at: now },
  });
  const key = (userId: string | null, name: string): ApiKeyRow => store.apiKeys.insert({
    account_id: id, user_id: userId, secret_hash: hashSecret(token(random, 24)), smpp_secret_hash: hashSecret(token(random, 6)),
    data: {
      active: true, id: ids.uuid(), identity: `sbx_${token(random, 9)}`, inserted_at: now, updated_at: now,
      key: `sbx_${token(random, 24)}`, name, notes: null, smpp_system_id: `s${random.bytes(6).toString('hex').slice(0, 11)}`,
    },
  });
  const admin = key(user('admin', 'Ada').data.id, 'Sandbox admin');
  const readonly = key(user('read_only', 'Rita').data.id, 'Sandbox read-only');
  const standard = key(null, 'Sandbox standard');
  const numbers = freeNumbers(deps);
  for (const number of numbers) {
    store.numbers.insert({
      account_id: id, switch_id: null, api_key_id: null, auto_response_id: null, campaign_id: null,
      data: { id: ids.uuid(), number, messaging_enabled: true, voice_enabled: true, rate_center: 'CHICAGO', state: 'IL', inserted_at: now, updated_at: now },
    });
  }
  store.sharedResourceGroups.insert({ account_id: id, data: { id: ids.uuid(), name: `${label} group`, inserted_at: now } });
  deps.clocks.for(id);
  await store.commit();
  return { id, name: label, keys: { admin: admin.data.key, readonly: readonly.data.key, standard: standard.data.key }, numbers };
}

interface Snapshot {
  data: DbData;
  files: Map<string, Buffer>;
  clocks: ReturnType<Deps['clocks']['save']>;
}

/** Named copies of the whole state: records, document files and clocks. */
export class Snapshots {
  private readonly saved = new Map<string, Snapshot>();

  async save(deps: Deps, name: string): Promise<void> {
    const data = deps.store.snapshot();
    const files = new Map<string, Buffer>();
    const ids = [...data.documents.map((d) => d.data.id), ...data.bulk_dip_tasks.map((t) => `result-${t.data.id}`)];
    for (const id of ids) {
      const bytes = await deps.store.files.get(id);
      if (bytes) files.set(id, bytes);
    }
    this.saved.set(name, { data, files, clocks: deps.clocks.save() });
  }

  has(name: string): boolean {
    return this.saved.has(name);
  }

  names(): string[] {
    return [...this.saved.keys()];
  }

  async restore(deps: Deps, name: string): Promise<void> {
    const snap = this.saved.get(name)!;
    for (const [id, bytes] of snap.files) await deps.store.files.put(id, bytes);
    await deps.store.replace(snap.data);
    deps.clocks.restore(snap.clocks);
    deps.scheduler.rearm();
  }
}
