/** Control API (contract/sim.yaml): what dipswitch saw and sent: the request journal, paged and live, and the delivery log. */
import { DomainError, invalidParameter, notFound } from '../domain/errors.js';
import { JOURNAL_STREAMS, type JournalFilter } from '../harness/journal.js';
import type { SimHandlerMap, StreamWriter } from '../handling/handler.js';
import { checkCallPattern } from './patterns.js';

/** A journal filter narrowed to the calls of the caller's account, when a key was given. */
const ownCalls = <F extends { account_id?: string }>(filter: F, own: string | undefined): F =>
  own === undefined ? filter : { ...filter, account_id: own };

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

  simDeliveries: async ({ read, own, query }) => {
    const rows = await read((w) => (own === undefined ? w.deliveries.list() : w.view(own).deliveries.list()));
    const deliveries = rows.filter((d) => !query.kind || d.data.kind === query.kind).map((d) => d.data);
    return { status: 200, body: { count: deliveries.length, deliveries } };
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
