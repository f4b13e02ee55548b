/**
 * The control API under /__sim (interface.md section 7; contract/sim.yaml), handlers keyed by
 * operationId, one file per area: not part of the simulated service. It goes through the same
 * pipeline as /api/v1 (src/http/app.ts); account-scoped calls act on the account of the key in
 * Authorization, the Demo account when none is given.
 */
import type { SimHandlerMap } from '../handling/handler.js';
import { accountHandlers } from './accounts.js';
import { clockHandlers } from './clock.js';
import { faultHandlers } from './faults.js';
import { inboundHandlers } from './inbound.js';
import { journalHandlers } from './journal.js';
import { stateHandlers } from './states.js';
import { metaHandlers } from './meta.js';
import { snapshotHandlers } from './snapshots.js';
import { verifyHandlers } from './verify.js';
import { coverageHandlers } from './coverage.js';
import { agentHandlers } from './agents.js';
import { listenerHandlers } from './listeners.js';

export const simHandlers: SimHandlerMap = {
  ...metaHandlers,
  ...accountHandlers,
  ...clockHandlers,
  ...faultHandlers,
  ...journalHandlers,
  ...snapshotHandlers,
  ...inboundHandlers,
  ...stateHandlers,
  ...verifyHandlers,
  ...coverageHandlers,
  ...agentHandlers,
  ...listenerHandlers,
};
