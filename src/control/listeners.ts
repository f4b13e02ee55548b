/**
 * `GET /__sim/listen`, `POST /__sim/listen/answers` and `GET /__sim/listeners`: a listener of the account's deliveries
 * (`dipswitch listen`, src/engine/listeners.ts), the answers it posts back, and the listeners connected.
 */
import type { SimHandlerMap } from '../handling/handler.js';

export const listenerHandlers = {
  simListen: async ({ port, query, accountId, authorization }) => {
    const seen = { name: query.name ?? 'default', all: query.all ?? false };
    const attach = await port.listeners.open(accountId, seen, authorization);
    return { status: 200, body: '', contentType: 'text/event-stream', stream: attach };
  },

  simListeners: ({ port, own }) => {
    const listeners = port.listeners.list(own);
    return { status: 200, body: { count: listeners.length, listeners } };
  },

  simListenAnswer: ({ port, body, accountId }) => {
    port.listeners.answer(accountId, body);
    return { status: 202, body: undefined };
  },
} satisfies Partial<SimHandlerMap>;
