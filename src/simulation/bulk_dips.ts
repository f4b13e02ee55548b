/**
 * The bulk dip lifecycle's runners: each due step moves a task along its table (src/domain/transitions.ts)
 * and does what entering the new status means; a task scheduled or aborted by hand; and what a settled
 * delivery of its on-done actions means to it.
 */
import { invalidField, invalidParameter } from '../domain/errors.js';
import { dropSteps } from './orders.js';
import { BULK_DIP_FIRST, bulkDipSteps, MAGIC } from '../domain/transitions.js';
import type { BulkDipTaskRow, DeliveryRow, OutboundSpec, StepRow } from '../domain/rows.js';
import { resultFile, runDips } from './dips.js';
import { authGap, authHeader, sftpLogin } from './outbound.js';
import type { Work } from '../engine/work.js';
import { resultFileId } from '../store/files.js';
import type { UnitOfWork } from '../store/store.js';

/** Schedules a new task's first step. */
export async function startBulkDip(work: Work, row: BulkDipTaskRow): Promise<void> {
  await work.outbox.schedule(
    'bulk_dip',
    row.data.id,
    work.clock.ms() + BULK_DIP_FIRST.afterMs(row.data.numbers.length),
  );
}

/** A CDR for every dip of a task with `enable_cdr_export` (interface.md section 6). */
async function exportCdrs(work: Work, row: BulkDipTaskRow): Promise<void> {
  const kind = row.data.type;
  if (!kind) return;
  for (const n of row.data.numbers)
    await work.outbox.cdr(kind, { from: row.data.reference_id ?? row.data.id, to: n, task_id: row.data.id });
}

/** Queues each on-done action: the result file POSTed, or uploaded by SFTP, with the action's auth. */
async function deliverResults(work: Work, row: BulkDipTaskRow): Promise<void> {
  const { contentType, extension } = resultFile(row.data, []);
  for (const [i, action] of row.data.on_done_actions.entries()) {
    // a task without a reference_id names its file by its id
    const name = action.filename ?? `${row.data.reference_id ?? row.data.id}.${extension}`;
    const reference = action.reference_id ?? row.data.reference_id;
    const archived = action.archive_format === 'TAR_GZ';
    const filename = archived ? `${name}.tar.gz` : name;
    const secret = row.action_secrets[i];
    const body_file = { id: resultFileId(row.data.id), ...(archived ? { archive_name: name } : {}) };
    const request: OutboundSpec =
      action.protocol === 'SFTP'
        ? {
            method: 'SFTP',
            url: action.data,
            headers: {},
            body: '',
            body_file,
            sftp: { ...sftpLogin(action.auth_method, action.auth_identity, secret), filename },
          }
        : {
            method: 'POST',
            url: action.data,
            headers: {
              'content-type': archived ? 'application/gzip' : contentType,
              'content-disposition': `attachment; filename="${filename}"`,
              'x-bulk-dip-task-id': row.data.id,
              ...(reference === null ? {} : { 'x-reference-id': reference }),
              ...authHeader(action.auth_method, action.auth_identity, secret),
            },
            body: '',
            body_file,
            note: authGap(action.auth_method, action.auth_identity, secret),
          };
    await work.outbox.deliver('result', request, {
      retry: true,
      settle: { kind: 'bulk_dip_action', task_id: row.data.id, index: i },
    });
  }
}

export async function runBulkDip(step: StepRow, work: Work): Promise<string> {
  const { clock } = work;
  const row = await work.bulkDipTasks.get(step.data.ref);
  if (!row) return 'the task is gone';
  const from = row.data.status;
  const timed = bulkDipSteps[from];
  if (!timed) return `the task is ${from} already`;
  const now = clock.iso();
  // a task without a type has nothing to look up: it fails as a bad source would
  if (from === 'NEW' && (row.data.type === null || row.data.reference_id?.startsWith(MAGIC.badSourceFile))) {
    await work.bulkDipTasks.update(row, (d) =>
      Object.assign(d.data, { status: 'ERROR', error_code: 'BAD_SOURCE_FILE', done_at: now, updated_at: now }),
    );
    return 'bulk dip NEW → ERROR (BAD_SOURCE_FILE)';
  }
  if (timed.next === 'STORING') {
    const results = await runDips(row.data);
    await work.files.put(resultFileId(row.data.id), resultFile(row.data, results).bytes);
    if (row.data.enable_cdr_export) await exportCdrs(work, row);
  }
  const moved = await work.bulkDipTasks.update(row, (d) => {
    Object.assign(d.data, { status: timed.next, updated_at: now });
    if (timed.next === 'DELIVERING') for (const a of d.data.on_done_actions) a.status = 'DELIVERING';
    if (timed.next === 'COMPLETED') d.data.done_at = now;
  });
  if (timed.next === 'DELIVERING') await deliverResults(work, moved);
  const after = bulkDipSteps[timed.next];
  if (after) await work.outbox.schedule('bulk_dip', row.data.id, clock.ms() + after.afterMs(row.data.numbers.length));
  return `bulk dip ${from} → ${timed.next}`;
}

/** Control API: a task not yet finished becomes ABORTED and does nothing more. */
export async function abortBulkDip(work: Work, row: BulkDipTaskRow): Promise<BulkDipTaskRow> {
  const from = row.data.status;
  if (from === 'COMPLETED' || from === 'ERROR' || from === 'ABORTED')
    throw invalidParameter('id', `The task is ${from}; only a task not yet finished can be aborted.`);
  await dropSteps(work, row.data.id);
  const now = work.clock.iso();
  return work.bulkDipTasks.update(row, (d) =>
    Object.assign(d.data, { status: 'ABORTED', done_at: now, updated_at: now }),
  );
}

/** Control API: a NEW task is held SCHEDULED and starts PROCESSING at `untilMs` on the account's clock. */
export async function scheduleBulkDip(work: Work, row: BulkDipTaskRow, untilMs: number): Promise<BulkDipTaskRow> {
  if (row.data.status !== 'NEW')
    throw invalidParameter('id', `The task is ${row.data.status}; only a NEW task can be scheduled.`);
  if (untilMs < work.clock.ms()) throw invalidField('/until', "until is before the account's clock.");
  await dropSteps(work, row.data.id);
  await work.outbox.schedule('bulk_dip', row.data.id, untilMs);
  return work.bulkDipTasks.update(row, (d) =>
    Object.assign(d.data, { status: 'SCHEDULED', updated_at: work.clock.iso() }),
  );
}

/**
 * What a settled delivery means to the simulation (the delivery worker's `settled` hook): a bulk
 * dip's on-done action ends COMPLETED when its file was taken, ERROR with DELIVERY_FAILED when not.
 */
export async function settleDelivery(w: UnitOfWork, row: DeliveryRow, delivered: boolean): Promise<void> {
  if (row.settle?.kind !== 'bulk_dip_action') return;
  const task = await w.bulkDipTasks.get(row.settle.task_id);
  const index = row.settle.index;
  if (!task?.data.on_done_actions[index]) return;
  await w.bulkDipTasks.update(task, (d) => {
    const action = d.data.on_done_actions[index];
    if (action)
      Object.assign(
        action,
        delivered ? { status: 'COMPLETED', error_code: 'OK' } : { status: 'ERROR', error_code: 'DELIVERY_FAILED' },
      );
  });
}
