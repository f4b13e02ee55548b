/** The runners of each kind of step: what makes dipswitch a simulator. */
import type { Runner } from '../engine/schedule.js';
import type { StepKind } from '../domain/rows.js';
import { runBulkDip } from './bulk_dips.js';
import { runOsrExpiry } from './overwrites.js';
import { runOrder } from './orders.js';
import { runRegistry } from './registry.js';

export const runners: Record<Exclude<StepKind, 'delivery'>, Runner> = {
  bulk_dip: runBulkDip,
  order: runOrder,
  osr_expire: runOsrExpiry,
  registry: runRegistry,
};
