/**
 * `GET /__sim/listen` and `POST /__sim/listen/answers`: a listener of the account's deliveries
 * (`dipswitch listen`, src/engine/listeners.ts) and the answers it posts back.
 */
import type { SimHandlerMap } from '../handling/handler.js';

export const listenerHandlers = {
  simListen: ({ port, query, accountId, credentials }) => {
    const seen = { name: query.name ?? 'default', all: query.all ?? false };
    const attach = port.listeners.open(accountId, seen, credentials.authorization);
    return { status: 200, body: '', contentType: 'text/event-stream', stream: attach };
  },

  simListenAnswer: ({ port, body, accountId }) => {
    port.listeners.answer(accountId, body);
    return { status: 202, body: undefined };
  },
} satisfies Partial<SimHandlerMap>;
