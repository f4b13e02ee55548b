/**
 * Bulk dip tasks (spec: Resources > Bulk dip task): created right after basic validation with
 * status NEW; the simulation moves them on. Action secrets are kept aside and never shown.
 */
import { toE164 } from '../domain/addresses.js';
import { targetViolations } from '../domain/deliveries.js';
import type { Violation } from '../domain/switches.js';
import { assertNoViolations } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import { startBulkDip } from '../simulation/bulk_dips.js';
import type { BulkDipTaskRow } from '../domain/rows.js';

const present = (row: BulkDipTaskRow) => ({ data: row.data, type: 'bulk_dip_task' as const });

export const bulkDipTaskHandlers = {
  createBulkDipTask: async (work) => {
    const { store, clock, ids, body } = work;
    const d = body.data;
    const violations: Violation[] = [];
    if (d.reference_id !== undefined && (await store.bulkDipTasks.byReference(d.reference_id))) {
      violations.push({
        pointer: '/data/reference_id',
        detail: `A task with reference_id ${d.reference_id} exists in the account.`,
      });
    }
    const actions = d.on_done_actions ?? [];
    actions.forEach((a, i) => violations.push(...targetViolations(`/data/on_done_actions/${i}`, a)));
    assertNoViolations(violations);
    const now = clock.iso();
    const row = await store.bulkDipTasks.insert({
      action_secrets: actions.map((a) => a.auth_secret ?? null),
      data: {
        id: ids.ulid(),
        type: d.type ?? null,
        numbers: (d.numbers ?? []).map(toE164),
        reference_id: d.reference_id ?? null,
        format: d.format ?? 'CSV',
        enhanced: d.enhanced ?? false,
        messaging_lookup: d.messaging_lookup ?? false,
        enable_cdr_export: d.enable_cdr_export ?? false,
        on_done_actions: actions.map(({ auth_secret: _secret, ...a }) => ({
          archive_format: 'NONE',
          auth_method: 'NONE',
          auth_identity: null,
          filename: null,
          reference_id: null,
          type: 'SEND',
          ...a,
          status: 'NEW',
          error_code: 'OK',
        })),
        status: 'NEW',
        error_code: 'OK',
        done_at: null,
        inserted_at: now,
        updated_at: now,
      },
    });
    await startBulkDip(work.store, row);
    return { status: 201, body: present(row) };
  },

  listBulkDipTasks: async (ctx) => storePageOf(ctx, (w) => ctx.store.bulkDipTasks.page(w), present),

  getBulkDipTask: async ({ store, params }) => ({
    status: 200,
    body: present(await store.bulkDipTasks.found(params.id, 'bulk_dip_task')),
  }),
} satisfies HandlerMap;
