/** Connects the scheduler to the lifecycle runners: what makes dipswitch a simulator. */
import type { Deps } from '../deps.js';
import { fixtureState } from '../store/fixtures.js';
import { runBulkDip, runOsrExpiry } from './lifecycles.js';
import { runOrder } from './orders.js';

export function startSimulation(deps: Deps): void {
  deps.scheduler.start(deps, {
    bulk_dip: runBulkDip,
    order: runOrder,
    osr_expire: runOsrExpiry,
    delivery: deps.deliveries.retry,
  });
}

/** Back to the fixtures: state, clocks, delivery log, faults and journal (`POST /__sim/reset`). */
export async function resetSimulation(deps: Deps): Promise<void> {
  deps.clocks.clear();
  deps.deliveries.clear();
  deps.faults.clear();
  deps.journal.clear();
  await deps.store.replace(fixtureState());
  deps.scheduler.rearm();
}
