/** The runners of each kind of step, and going back to the fixtures: what makes dipswitch a simulator. */
import type { StepKind } from '../store/rows.js';
import type { UnitOfWork } from '../store/store.js';
import type { DbData } from '../store/rows.js';
import { runBulkDip, runOsrExpiry } from './lifecycles.js';
import { runOrder } from './orders.js';
import { runRegistry } from './registry.js';
import type { Runner } from '../engine/scheduler.js';

export const runners: Record<Exclude<StepKind, 'delivery'>, Runner> = {
  bulk_dip: runBulkDip,
  order: runOrder,
  osr_expire: runOsrExpiry,
  registry: runRegistry,
};

/** Back to the fixtures (`POST /__sim/reset`): records, clocks, schedule and delivery log, in whole-state work. */
export async function resetState(store: UnitOfWork, fixtures: DbData): Promise<void> {
  await store.replaceAll(fixtures);
}
