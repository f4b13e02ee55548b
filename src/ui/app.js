// @ts-check
// The dashboard: shows and steers the simulation through the control API (/__sim) and /api/v1 only,
// as any script could. Plain DOM modules, no build step; every text from the server goes in as text,
// never as HTML. One module per tab (tab-*.js), the calls (api.js), DOM helpers (dom.js), the page around them (shell.js).
import { start, views } from './shell.js';
import { clockView } from './tab-clock.js';
import { coverageView } from './tab-coverage.js';
import { deliveriesView } from './tab-deliveries.js';
import { faultsView } from './tab-faults.js';
import { parityView } from './tab-parity.js';
import { requestsView } from './tab-requests.js';
import { scenariosView } from './tab-scenarios.js';
import { stateView } from './tab-state.js';
import { timelineView } from './tab-timeline.js';

Object.assign(views, {
  requests: requestsView,
  deliveries: deliveriesView,
  clock: clockView,
  timeline: timelineView,
  state: stateView,
  faults: faultsView,
  scenarios: scenariosView,
  coverage: coverageView,
  parity: parityView,
});

void start();
