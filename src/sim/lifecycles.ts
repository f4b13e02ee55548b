/**
 * The runners of the bulk dip and OSR lifecycles: each due step moves the record along its table
 * (src/domain/lifecycles.ts) and does what entering the new status means.
 */
import { bulkDipSteps, MAGIC, OSR_REVIEW_WINDOW_MS } from '../domain/lifecycles.js';
import type { Deps } from '../deps.js';
import type { BulkDipTaskRow, OverwriteRequestRow, ScheduledStep } from '../store/rows.js';
import { tarGz } from './archive.js';
import { authHeader, sftpLogin } from './deliveries.js';
import type { OutboundRequest } from './http_client.js';
import { resultFile, runDips } from './dips.js';
import { publish, sendCdr } from './events.js';

const resultId = (taskId: string) => `result-${taskId}`;
const CDR_CONCURRENCY = 16;

/** Schedules a new task's first step. */
export function startBulkDip(deps: Deps, row: BulkDipTaskRow): void {
  const first = bulkDipSteps.NEW!;
  deps.scheduler.at(row.account_id, deps.clock.now().getTime() + first.afterMs(row.data.numbers.length), 'bulk_dip', row.data.id);
}

async function exportCdrs(deps: Deps, row: BulkDipTaskRow): Promise<void> {
  const queue = [...row.data.numbers];
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      await sendCdr(deps, row.account_id, row.data.type, { from: row.data.reference_id, to: n, task_id: row.data.id });
    }
  };
  await Promise.all(Array.from({ length: CDR_CONCURRENCY }, worker));
}

/** Runs each on-done action: the result file POSTed, or uploaded by SFTP, with the action's auth. */
async function deliverResults(deps: Deps, row: BulkDipTaskRow): Promise<void> {
  const file = await deps.store.files.get(resultId(row.data.id));
  const { contentType, extension } = resultFile(row.data, []);
  await Promise.all(row.data.on_done_actions.map(async (action, i) => {
    const name = action.filename ?? `${row.data.reference_id}.${extension}`;
    const archived = action.archive_format === 'TAR_GZ';
    const filename = archived ? `${name}.tar.gz` : name;
    const body = archived ? tarGz(name, file ?? Buffer.alloc(0), deps.clock.now().getTime()) : file ?? Buffer.alloc(0);
    const secret = row.action_secrets[i];
    action.status = 'DELIVERING';
    const request: OutboundRequest = action.protocol === 'SFTP'
      ? { method: 'SFTP', url: action.data, headers: {}, body, sftp: { ...sftpLogin(action.auth_method, action.auth_identity, secret), filename } }
      : {
        method: 'POST',
        url: action.data,
        headers: {
          'content-type': archived ? 'application/gzip' : contentType,
          'content-disposition': `attachment; filename="${filename}"`,
          'x-bulk-dip-task-id': row.data.id,
          'x-reference-id': action.reference_id ?? row.data.reference_id,
          ...authHeader(action.auth_method, action.auth_identity, secret),
        },
        body,
      };
    await deps.deliveries.deliver(deps, row.account_id, 'result', request, {
      retry: true,
      onSettled: (ok) => {
        Object.assign(action, ok ? { status: 'COMPLETED', error_code: 'OK' } : { status: 'ERROR', error_code: 'DELIVERY_FAILED' });
        deps.store.bulkDipTasks.touch(row);
      },
    });
  }));
}

export async function runBulkDip(step: ScheduledStep, deps: Deps): Promise<string> {
  const row = deps.store.bulkDipTasks.getAnyAccount(step.ref);
  if (!row) return 'the task is gone';
  const from = row.data.status;
  const timed = bulkDipSteps[from];
  if (!timed) return `the task is ${from} already`;
  const now = deps.clock.iso();
  if (from === 'NEW' && row.data.reference_id.startsWith(MAGIC.badSourceFile)) {
    Object.assign(row.data, { status: 'ERROR', error_code: 'BAD_SOURCE_FILE', done_at: now, updated_at: now });
    deps.store.bulkDipTasks.touch(row);
    return 'bulk dip NEW → ERROR (BAD_SOURCE_FILE)';
  }
  Object.assign(row.data, { status: timed.next, updated_at: now });
  if (timed.next === 'STORING') {
    const results = await runDips(row.data);
    await deps.store.files.put(resultId(row.data.id), resultFile(row.data, results).bytes);
    if (row.data.enable_cdr_export) await exportCdrs(deps, row);
  }
  if (timed.next === 'DELIVERING') await deliverResults(deps, row);
  if (timed.next === 'COMPLETED') row.data.done_at = now;
  deps.store.bulkDipTasks.touch(row);
  const after = bulkDipSteps[timed.next];
  if (after) deps.scheduler.at(row.account_id, deps.clock.now().getTime() + after.afterMs(row.data.numbers.length), 'bulk_dip', row.data.id);
  return `bulk dip ${from} → ${timed.next}`;
}

/** Raises an OSR overwrite request for one of the account's numbers (control API). */
export async function raiseOverwriteRequest(deps: Deps, accountId: string, numberId: string, serviceProvider: string): Promise<OverwriteRequestRow> {
  const number = deps.store.numbers.get(accountId, numberId)!;
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + OSR_REVIEW_WINDOW_MS);
  const row = deps.store.overwriteRequests.insert({
    account_id: accountId, number_id: number.data.id, service_provider: serviceProvider, reviewed_user_id: null,
    data: {
      id: deps.ids.ulid(), tn: number.data.number, activation: now.toISOString(), expires_at: expires.toISOString(), is_stale: false,
      status: 'NEW', review_status: 'NONE', error_code: 'OK', inserted_at: now.toISOString(), updated_at: now.toISOString(),
    },
  });
  deps.scheduler.at(accountId, expires.getTime(), 'osr_expire', row.data.id);
  await deps.store.commit();
  await publish(deps, accountId, 'OSR', 'osr.created', { type: 'osr_overwrite_request', data: row.data });
  return row;
}

/** Past `expires_at` unreviewed, a request goes STALE. */
export async function runOsrExpiry(step: ScheduledStep, deps: Deps): Promise<string> {
  const row = deps.store.overwriteRequests.getAnyAccount(step.ref);
  if (!row) return 'the overwrite request is gone';
  if (row.data.status !== 'NEW' || row.data.review_status !== 'NONE') return `overwrite request already ${row.data.status}`;
  Object.assign(row.data, { status: 'STALE', is_stale: true, updated_at: deps.clock.iso() });
  deps.store.overwriteRequests.touch(row);
  await publish(deps, row.account_id, 'OSR', 'osr.stale', { type: 'osr_overwrite_request', data: row.data });
  return 'overwrite request NEW → STALE';
}
