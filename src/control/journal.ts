/** Control API (contract/sim.yaml): what dipswitch saw and sent: the request journal, paged and live, and the delivery log. */
import { DomainError, invalidParameter, notFound } from '../domain/errors.js';
import { JOURNAL_STREAMS } from '../engine/journal.js';
import type { SimHandlerMap, StreamWriter } from '../http/handler.js';
import { read } from './read.js';

export const journalHandlers = {
  simRequests: async ({ runtime, query }) => {
    if (query.cursor !== undefined && !/^\d{1,15}$/.test(query.cursor))
      throw invalidParameter('cursor', 'cursor is not a next_cursor of this journal.');
    const { limit = 100, cursor, ...filter } = query;
    return { status: 200, body: await runtime.journal.page(filter, limit, cursor) };
  },

  simRequestStream: ({ runtime, query }) => {
    // calls journaled before the writer is handed over wait here
    let out: StreamWriter | undefined;
    const early: string[] = [];
    const stop = runtime.journal.listen({ api: query.api ?? 'v1' }, (entry) => {
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

  simDeliveries: async ({ runtime, accountId, query }) => {
    const rows = await read(runtime, (w) => w.deliveries.list(accountId));
    const deliveries = rows.filter((d) => !query.kind || d.data.kind === query.kind).map((d) => d.data);
    return { status: 200, body: { count: deliveries.length, deliveries } };
  },

  simRedeliver: async ({ runtime, accountId, params }) => {
    const delivery = await runtime.deliveries.redeliver(accountId, params.id);
    if (!delivery) throw notFound('delivery', params.id);
    return { status: 200, body: delivery.data };
  },
} satisfies Partial<SimHandlerMap>;
