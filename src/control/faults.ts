/** Control API (contract/sim.yaml): faults: rules that change answers and deliveries on purpose (interface.md section 7). */
import { notFound } from '../domain/errors.js';
import type { SimHandlerMap } from '../http/handler.js';

export const faultHandlers = {
  simAddFault: async ({ runtime, body }) => ({
    status: 201,
    body: await runtime.faults.add({
      id: runtime.ids.uuid(),
      match: body.match,
      effect: body.effect,
      times: body.times ?? null,
      probability: body.probability ?? null,
    }),
  }),

  simListFaults: async ({ runtime }) => ({ status: 200, body: { faults: await runtime.faults.list() } }),

  simDeleteFault: async ({ runtime, params }) => {
    const rule = await runtime.faults.remove(params.id);
    if (!rule) throw notFound('fault', params.id);
    return { status: 200, body: rule };
  },
} satisfies Partial<SimHandlerMap>;
