/** Messaging auto responses (spec: Resources > Messaging auto response; Endpoints). */
import { normalizeKeywords } from '../domain/keywords.js';
import { assertFound, assertNoViolations, inUse } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import { pageOf } from '../http/pagination.js';
import type { AutoResponseRow } from '../store/rows.js';

const present = (row: AutoResponseRow) => ({ data: row.data, type: 'messaging_auto_response' as const });

export const autoResponseHandlers = {
  createAutoResponse: async ({ deps, principal, body }) => {
    const { store, clock, ids } = deps;
    const { keywords, violations } = normalizeKeywords(body.data.keywords ?? [], false);
    assertNoViolations(violations);
    const now = clock.iso();
    const row = store.autoResponses.insert({
      account_id: principal.accountId,
      data: { id: ids.uuid(), name: body.data.name ?? null, notes: body.data.notes ?? null, keywords, inserted_at: now, updated_at: now },
    });
    await store.commit();
    return { status: 201, body: present(row) };
  },

  listAutoResponses: (ctx) =>
    pageOf(ctx, ctx.deps.store.autoResponses.list(ctx.principal.accountId), present),

  getAutoResponse: ({ deps, principal, params }) => ({
    status: 200,
    body: present(assertFound(deps.store.autoResponses.get(principal.accountId, params.id), 'messaging_auto_response', params.id)),
  }),

  updateAutoResponse: async ({ deps, principal, params, body }) => {
    const { store, clock } = deps;
    const row = assertFound(store.autoResponses.get(principal.accountId, params.id), 'messaging_auto_response', params.id);
    const { keywords: input, ...fields } = body.data;
    if (input !== undefined) {
      const { keywords, violations } = normalizeKeywords(input, row.data.keywords.some((k) => k.is_wildcard));
      assertNoViolations(violations);
      row.data.keywords = keywords;
    }
    Object.assign(row.data, fields, { updated_at: clock.iso() });
    store.autoResponses.touch(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },

  deleteAutoResponse: async ({ deps, principal, params }) => {
    const { store } = deps;
    const row = assertFound(store.autoResponses.get(principal.accountId, params.id), 'messaging_auto_response', params.id);
    const numbers = store.numbers.usingAutoResponse(row.data.id).length;
    if (numbers) throw inUse(`The auto response is bound to ${numbers} number(s); unbind it first.`);
    store.autoResponses.remove(row);
    await store.commit();
    return { status: 200, body: present(row) };
  },
} satisfies HandlerMap;
