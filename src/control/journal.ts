/** Control API (contract/sim.yaml): what dipswitch saw and sent: the request journal, paged and live, and the delivery log. */
import { DomainError, invalidParameter, notFound } from '../domain/errors.js';
import { JOURNAL_STREAMS, type JournalFilter } from '../harness/journal.js';
import type { SimHandlerMap, StreamWriter } from '../handling/handler.js';
import { checkAccount, checkCallPattern } from './patterns.js';
import { parseJson } from '../domain/json.js';
import type { DeliveryKind, DeliveryRow } from '../domain/delivery_rows.js';
import { keyOf, type SortKey } from '../store/page.js';
import type { UnitOfWork } from '../store/store.js';

/** A journal filter narrowed to the calls of the caller's account, when a key was given. */
const ownCalls = <F extends { account_id?: string }>(filter: F, own: string | undefined): F =>
  own === undefined ? filter : { ...filter, account_id: own };

/** A page of deliveries across accounts, when no `limit` is given. */
const DELIVERIES_PAGE = 1_000;

/** Where a page of deliveries starts: after this delivery of this account. */
interface DeliveryPlace {
  account: string;
  key: SortKey;
}

const encodeCursor = (p: DeliveryPlace) => Buffer.from(JSON.stringify([p.account, ...p.key])).toString('base64url');

/** A `next_cursor` read back; anything else is refused by name. */
function deliveryCursor(cursor: string): DeliveryPlace {
  const refused = () => invalidParameter('cursor', 'cursor is not a next_cursor of this delivery log.');
  const parts = parseJson(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((p) => typeof p === 'string')) throw refused();
  const [account, at, id] = parts as [string, string, string];
  return { account, key: [at, id] };
}

/**
 * One page of the delivery log, by account then oldest first: the accounts that have a log (one row
 * each), then a page of each from where the cursor left off, until `limit` are found. A full page
 * names where the next starts.
 */
async function deliveriesPage(
  w: UnitOfWork,
  own: string | undefined,
  kind: DeliveryKind | undefined,
  limit: number,
  from: DeliveryPlace | undefined,
) {
  const accounts =
    own !== undefined ? [own] : [...new Set((await w.deliveries.oldestOfEach()).map((r) => r.account_id))].sort();
  const found: DeliveryRow[] = [];
  for (const account of accounts) {
    if (from && account < from.account) continue;
    let after = from && account === from.account ? from.key : undefined;
    const log = w.view(account).deliveries;
    while (found.length < limit) {
      const page = await log.page({ after, size: limit - found.length, fromEnd: false, newestFirst: false });
      found.push(...page.rows.filter((r) => !kind || r.data.kind === kind));
      const last = page.rows.at(-1);
      if (!page.hasNext || !last) break;
      after = keyOf(last);
    }
    if (found.length >= limit) break;
  }
  const last = found.at(-1);
  return {
    count: found.length,
    deliveries: found.map((r) => r.data),
    next_cursor: found.length >= limit && last ? encodeCursor({ account: last.account_id, key: keyOf(last) }) : null,
  };
}

export const journalHandlers = {
  simRequests: async ({ port, read, query, own }) => {
    if (query.cursor !== undefined && !/^\d{1,15}$/.test(query.cursor))
      throw invalidParameter('cursor', 'cursor is not a next_cursor of this journal.');
    const { limit = 100, cursor, ...filter } = query;
    // a filter naming what no call could be would answer an empty page that looks like "never called"
    await checkCallPattern(port, read, filter, filter.api, 'query', true);
    return { status: 200, body: await port.journal.page(ownCalls(filter, own), limit, cursor) };
  },

  simRequestStream: ({ port, query, own }) => {
    // calls journaled before the writer is handed over wait here
    let out: StreamWriter | undefined;
    const early: string[] = [];
    const stop = port.journal.listen(ownCalls<JournalFilter>({ api: query.api ?? 'v1' }, own), (entry) => {
      const event = `event: call\nid: ${entry.id}\ndata: ${JSON.stringify(entry)}\n\n`;
      if (out) out.write(event);
      else early.push(event);
    });
    if (!stop)
      throw new DomainError('limit_reached', [
        { detail: `${JOURNAL_STREAMS} journal streams are open; close one (or read GET /__sim/requests).` },
      ]);
    return {
      status: 200,
      body: '',
      contentType: 'text/event-stream',
      stream: (writer) => {
        out = writer;
        writer.onClose(stop);
        writer.write(': the calls journaled from now on\n\n');
        for (const event of early.splice(0)) writer.write(event);
      },
    };
  },

  simDeliveries: async ({ port, read, own, query }) => {
    if (own !== undefined && query.account_id !== undefined && query.account_id !== own)
      throw invalidParameter('account_id', "A key's deliveries are its account's; name no other.");
    if (own === undefined && query.account_id !== undefined) await checkAccount(port, read, query.account_id, 'query');
    const account = own ?? query.account_id;
    const paged = account === undefined || query.limit !== undefined || query.cursor !== undefined;
    if (!paged) {
      const rows = await read((w) => w.view(account).deliveries.list());
      const deliveries = rows.filter((d) => !query.kind || d.data.kind === query.kind).map((d) => d.data);
      return { status: 200, body: { count: deliveries.length, deliveries, next_cursor: null } };
    }
    const from = query.cursor === undefined ? undefined : deliveryCursor(query.cursor);
    const page = await read((w) => deliveriesPage(w, account, query.kind, query.limit ?? DELIVERIES_PAGE, from));
    return { status: 200, body: page };
  },

  simDelivery: async ({ read, own, params }) => {
    // without a key, any account's delivery (its id names it)
    const row = await read((w) => (own === undefined ? w.deliveries : w.view(own).deliveries).get(params.id));
    if (!row) throw notFound('delivery', params.id);
    return { status: 200, body: row.data };
  },

  simRedeliver: async ({ port, read, own, params }) => {
    // without a key, any account's delivery (its id names it)
    const accountId = own ?? (await read((w) => w.deliveries.get(params.id)))?.account_id;
    const delivery = accountId ? await port.deliveries.redeliver(accountId, params.id) : null;
    if (!delivery) throw notFound('delivery', params.id);
    return { status: 200, body: delivery.data };
  },
} satisfies Partial<SimHandlerMap>;
