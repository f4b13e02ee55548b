/** Connects the scheduler to the lifecycle runners: what makes dipswitch a simulator. */
import type { Deps } from '../deps.js';
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
