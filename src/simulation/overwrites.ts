/** The OSR overwrite request's lifecycle: one raised by hand, and one gone STALE past its review window. */
import { OSR_REVIEW_WINDOW_MS } from '../domain/transitions.js';
import type { NumberRow, OverwriteRequestRow, StepRow } from '../domain/rows.js';
import type { Work } from '../engine/work.js';

/** Raises an OSR overwrite request for one of the account's numbers (control API). */
export async function raiseOverwriteRequest(
  work: Work,
  number: NumberRow,
  serviceProvider: string,
): Promise<OverwriteRequestRow> {
  const { clock, ids, outbox } = work;
  const now = clock.now();
  const expires = new Date(now.getTime() + OSR_REVIEW_WINDOW_MS);
  const row = await work.overwriteRequests.insert({
    number_id: number.data.id,
    service_provider: serviceProvider,
    reviewed_user_id: null,
    data: {
      id: ids.ulid(),
      tn: number.data.number,
      activation: now.toISOString(),
      expires_at: expires.toISOString(),
      is_stale: false,
      status: 'NEW',
      review_status: 'NONE',
      error_code: 'OK',
      inserted_at: now.toISOString(),
      updated_at: now.toISOString(),
    },
  });
  await outbox.schedule('osr_expire', row.data.id, expires.getTime());
  await outbox.publish('OSR', 'osr.created', { type: 'osr_overwrite_request', data: row.data });
  return row;
}

/** Past `expires_at` unreviewed, a request goes STALE. */
export async function runOsrExpiry(step: StepRow, work: Work): Promise<string> {
  const row = await work.overwriteRequests.get(step.data.ref);
  if (!row) return 'the overwrite request is gone';
  if (row.data.status !== 'NEW' || row.data.review_status !== 'NONE')
    return `overwrite request already ${row.data.status}`;
  const stale = await work.overwriteRequests.update(row, (d) =>
    Object.assign(d.data, { status: 'STALE', is_stale: true, updated_at: work.clock.iso() }),
  );
  await work.outbox.publish('OSR', 'osr.stale', { type: 'osr_overwrite_request', data: stale.data });
  return 'overwrite request NEW → STALE';
}
