/**
 * Bulk dip tasks (spec: Resources > Bulk dip task): created right after basic validation with
 * status NEW; the simulation moves them on. Action secrets are kept aside and never shown.
 */
import { targetViolations } from '../domain/deliveries.js';
import type { Violation } from '../domain/switches.js';
import { assertFound, assertNoViolations } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import { startBulkDip } from '../sim/lifecycles.js';
import type { BulkDipTaskRow } from '../store/rows.js';

const present = (row: BulkDipTaskRow) => ({ data: row.data, type: 'bulk_dip_task' as const });

export const bulkDipTaskHandlers = {
  createBulkDipTask: async ({ deps, principal, body }) => {
    const { store, clock, ids } = deps;
    const d = body.data;
    const violations: Violation[] = [];
    if (store.bulkDipTasks.find((t) => t.account_id === principal.accountId && t.data.reference_id === d.reference_id)) {
      violations.push({ pointer: '/data/reference_id', detail: `A task with reference_id ${d.reference_id} exists in the account.` });
    }
    for (const flag of ['enhanced', 'messaging_lookup'] as const) {
      if (d[flag] && d.type !== 'LRN') violations.push({ pointer: `/data/${flag}`, detail: `${flag} is only for LRN tasks.` });
    }
    const actions = d.on_done_actions ?? [];
    actions.forEach((a, i) => violations.push(...targetViolations(`/data/on_done_actions/${i}`, a, a.auth_secret)));
    assertNoViolations(violations);
    const now = clock.iso();
    const row = store.bulkDipTasks.insert({
      account_id: principal.accountId,
      action_secrets: actions.map((a) => a.auth_secret ?? null),
      data: {
        id: ids.ulid(),
        type: d.type,
        numbers: d.numbers.map((n) => (n.startsWith('+') ? n : `+${n}`)),
        reference_id: d.reference_id,
        format: d.format ?? 'CSV',
        enhanced: d.enhanced ?? false,
        messaging_lookup: d.messaging_lookup ?? false,
        enable_cdr_export: d.enable_cdr_export ?? false,
        on_done_actions: actions.map(({ auth_secret: _secret, ...a }) => ({
          archive_format: 'NONE', auth_method: 'NONE', auth_identity: null, filename: null, reference_id: null, type: 'SEND',
          ...a, status: 'NEW', error_code: 'OK',
        })),
        status: 'NEW',
        error_code: 'OK',
        done_at: null,
        inserted_at: now,
        updated_at: now,
      },
    });
    startBulkDip(deps, row);
    await store.commit();
    return { status: 201, body: present(row) };
  },

  listBulkDipTasks: (ctx) =>
    pageOf(ctx, ctx.deps.store.bulkDipTasks.list(ctx.principal.accountId), present),

  getBulkDipTask: ({ deps, principal, params }) => ({
    status: 200,
    body: present(assertFound(deps.store.bulkDipTasks.get(principal.accountId, params.id), 'bulk_dip_task', params.id)),
  }),
} satisfies HandlerMap;
