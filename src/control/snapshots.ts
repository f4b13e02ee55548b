/** Control API (contract/sim.yaml): snapshots of the whole state, saved and restored by name. */
import { notFound } from '../domain/errors.js';
import type { SimHandlerMap } from '../http/handler.js';

export const snapshotHandlers = {
  simListSnapshots: async ({ runtime }) => ({ status: 200, body: { snapshots: await runtime.snapshots.list() } }),

  simSaveSnapshot: async ({ runtime, body }) => {
    await runtime.snapshots.save((fn) => runtime.store.run({ global: true }, fn), body.name);
    return { status: 201, body: { name: body.name, snapshots: await runtime.snapshots.list() } };
  },

  simRestoreSnapshot: async ({ runtime, params }) => {
    if (!(await runtime.snapshots.restore((fn) => runtime.store.run({ global: true }, fn), params.name)))
      throw notFound('snapshot', params.name);
    runtime.clocks.forget();
    await runtime.scheduler.rearm();
    return { status: 200, body: { name: params.name, restored: true } };
  },
} satisfies Partial<SimHandlerMap>;
