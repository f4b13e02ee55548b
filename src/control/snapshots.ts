/**
 * Control API (contract/sim.yaml): snapshots saved and restored by name: of the whole state, or,
 * with an account's key, of that account's records alone (its names are its own).
 */
import { notFound } from '../domain/errors.js';
import type { SimHandlerMap } from '../handling/handler.js';

export const snapshotHandlers = {
  simListSnapshots: async ({ runtime, own }) => ({
    status: 200,
    body: { snapshots: await runtime.snapshots.list(own) },
  }),

  simSaveSnapshot: async ({ runtime, body, own }) => {
    await runtime.snapshots.save((fn) => runtime.run({ global: true }, fn), body.name, own);
    return { status: 201, body: { name: body.name, snapshots: await runtime.snapshots.list(own) } };
  },

  simRestoreSnapshot: async ({ runtime, params, own }) => {
    if (!(await runtime.snapshots.restore((fn) => runtime.run({ global: true }, fn), params.name, own)))
      throw notFound('snapshot', params.name);
    runtime.clocks.forget();
    await runtime.scheduler.rearm();
    return { status: 200, body: { name: params.name, restored: true } };
  },
} satisfies Partial<SimHandlerMap>;
