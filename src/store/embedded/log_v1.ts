/**
 * The store's first format (before checksummed lines), read once and rewritten in the current one:
 * accounts and the schedule were top-level values, and log lines were bare JSON.
 */
import type { AnyRow, CollectionName } from '../schema.js';

/** Each collection's rows by id (log_file.ts's tables). */
type Tables = Map<CollectionName, Map<string, AnyRow>>;

interface V1Step {
  id: string;
  account_id: string;
  at: string;
  kind: string;
  ref: string;
}

/** Format 1 (before checksummed lines): accounts and the schedule were top-level values. */
export function fromV1(doc: Record<string, unknown>): Record<string, unknown> {
  const collections: Record<string, unknown> = { ...doc };
  collections.accounts = (doc.accounts as { id: string; name: string; inserted_at: string }[]).map((a) => ({
    account_id: a.id,
    data: a,
  }));
  collections.steps = v1Steps(doc.schedule as V1Step[]);
  return collections;
}

function v1Steps(schedule: V1Step[]): AnyRow[] {
  const rows = schedule.map((s, i) => ({
    account_id: s.account_id,
    seq: i,
    data: { id: s.id, inserted_at: s.at, at: s.at, kind: s.kind, ref: s.ref },
  }));
  // cast: a v1 step's `kind` is any text the old format wrote; the step table reads it as it reads its own rows
  return rows as unknown as AnyRow[];
}

export function replayV1(tables: Tables, text: string): void {
  for (const line of text.split('\n')) {
    if (!line) continue;
    let changes: unknown[][];
    try {
      changes = JSON.parse(line) as unknown[][];
    } catch {
      // a torn last line (a crash mid-write): the log ends before it
      break;
    }
    for (const [op, name, value] of changes) {
      if (op === 'set' && name === 'accounts') {
        tables.set(
          'accounts',
          new Map(
            (value as { id: string; name: string; inserted_at: string }[]).map((a) => [
              a.id,
              { account_id: a.id, data: a },
            ]),
          ),
        );
      } else if (op === 'set' && name === 'schedule') {
        tables.set('steps', new Map(v1Steps(value as V1Step[]).map((s) => [s.data.id, s])));
      } else if (op === 'put' || op === 'del') {
        const rows = tables.get(name as CollectionName);
        if (op === 'put') rows?.set((value as AnyRow).data.id, value as AnyRow);
        else rows?.delete(value as string);
      }
    }
  }
}
