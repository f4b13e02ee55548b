/** Messaging auto responses (spec: Resources > Messaging auto response; Endpoints). */
import { normalizeKeywords } from '../domain/keywords.js';
import { assertNoViolations, inUse } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import { storePageOf } from '../handling/pagination.js';
import type { AutoResponseRow } from '../domain/rows.js';

const present = (row: AutoResponseRow) => ({ data: row.data, type: 'messaging_auto_response' as const });

export const autoResponseHandlers = {
  createAutoResponse: async ({ store, clock, ids, body }) => {
    const { keywords, violations } = normalizeKeywords(body.data.keywords ?? [], false);
    assertNoViolations(violations);
    const now = clock.iso();
    const row = await store.autoResponses.insert({
      data: {
        id: ids.uuid(),
        name: body.data.name ?? null,
        notes: body.data.notes ?? null,
        keywords,
        inserted_at: now,
        updated_at: now,
      },
    });
    return { status: 201, body: present(row) };
  },

  listAutoResponses: async (ctx) => storePageOf(ctx, (w) => ctx.store.autoResponses.page(w), present),

  getAutoResponse: async ({ store, params }) => ({
    status: 200,
    body: present(await store.autoResponses.found(params.id, 'messaging_auto_response')),
  }),

  updateAutoResponse: async ({ store, clock, params, body }) => {
    const row = await store.autoResponses.found(params.id, 'messaging_auto_response');
    const { keywords: input, ...fields } = body.data;
    const normalized =
      input === undefined
        ? undefined
        : normalizeKeywords(
            input,
            row.data.keywords.some((k) => k.is_wildcard),
          );
    if (normalized) assertNoViolations(normalized.violations);
    const updated = await store.autoResponses.update(row, (d) => {
      if (normalized) d.data.keywords = normalized.keywords;
      Object.assign(d.data, fields, { updated_at: clock.iso() });
    });
    return { status: 200, body: present(updated) };
  },

  deleteAutoResponse: async ({ store, params }) => {
    const row = await store.autoResponses.found(params.id, 'messaging_auto_response');
    const numbers = (await store.numbers.usingAutoResponse(row.data.id)).length;
    if (numbers) throw inUse(`The auto response is bound to ${numbers} number(s); unbind it first.`);
    await store.autoResponses.remove(row);
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
