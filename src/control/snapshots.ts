/**
 * Control API (contract/sim.yaml): snapshots saved and restored by name: of the whole state, or,
 * with an account's key, of that account's records alone (its names are its own).
 */
import { notFound } from '../domain/errors.js';
import type { SimHandlerMap } from '../handling/handler.js';

export const snapshotHandlers = {
  simListSnapshots: async ({ port, own }) => ({
    status: 200,
    body: { snapshots: await port.snapshots.list(own) },
  }),

  simSaveSnapshot: async ({ port, body, own }) => {
    await port.snapshots.save((fn) => port.run({ global: true }, fn), body.name, own);
    return { status: 201, body: { name: body.name, snapshots: await port.snapshots.list(own) } };
  },

  simRestoreSnapshot: async ({ port, params, own }) => {
    if (!(await port.snapshots.restore((fn) => port.run({ global: true }, fn), params.name, own)))
      throw notFound('snapshot', params.name);
    port.clocks.forget();
    await (own === undefined ? port.scheduler.rearm() : port.scheduler.retime(own));
    return { status: 200, body: { name: params.name, restored: true } };
  },
} satisfies Partial<SimHandlerMap>;
