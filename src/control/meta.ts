/** Control API (contract/sim.yaml): the control API itself: its contract, health, scenarios, and the dashboard page. */
import { loadContract, packageVersion } from '../contract.js';
import { notFound } from '../domain/errors.js';
import type { SimHandlerMap } from '../handling/handler.js';
import { dashboardAsset } from './ui.js';

export const metaHandlers = {
  simOpenapi: ({ query }) => {
    const contract = loadContract('sim');
    return query.format === 'yaml'
      ? { status: 200, body: contract.yamlText(), contentType: 'application/yaml' }
      : { status: 200, body: contract.document };
  },

  simHealth: () => ({ status: 200, body: { status: 'ok', version: packageVersion } }),

  // the store not answering is 503 storage_unavailable, as every call that needs it
  simReady: async ({ port }) => {
    await port.reachable();
    return { status: 200, body: { status: 'ready', version: packageVersion } };
  },

  simMetrics: async ({ port }) => ({
    status: 200,
    body: await port.metrics.text(),
    contentType: port.metrics.registry.contentType,
  }),

  simAdmission: ({ port, own }) => {
    const limits = port.metrics.admissionLimits();
    const accounts = port.metrics
      .queues()
      .filter((q) => own === undefined || q.account === own)
      .sort((a, b) => b.waiting - a.waiting || b.running - a.running || a.account.localeCompare(b.account))
      .map((q) => ({
        account_id: q.account,
        running: q.running,
        waiting: q.waiting,
        refused: q.refused,
        mean_wait_ms: Math.round(q.meanWaitMs * 100) / 100,
      }));
    return {
      status: 200,
      body: {
        limits: {
          account_in_flight: limits?.perAccount ?? 1,
          calls_in_flight: limits?.total ?? 1,
          account_backlog: limits?.backlog ?? 1,
          account_rate: limits?.rate ?? null,
        },
        accounts,
      },
    };
  },

  simListScenarios: async ({ port }) => {
    const { scenarios, problems } = await port.scenarios.catalog();
    const names = [...scenarios.keys()].sort();
    return {
      status: 200,
      body: {
        scenarios: names,
        titles: Object.fromEntries(names.map((n) => [n, scenarios.get(n)?.scenario.title ?? ''])),
        problems,
      },
    };
  },

  simScenario: async ({ port, params, callBack }) => ({
    status: 200,
    body: await port.scenarios.run({ request: callBack.asServer }, params.name),
  }),

  simDashboard: ({ port }) => {
    const page = dashboardAsset('index.html');
    if (!page) throw notFound('asset', 'index.html');
    // the page's settings, read by its modules (src/ui/dom.js traceLink)
    const viewer = port.dashboard.traceViewer;
    const text = viewer
      ? page.text.replace(
          '<head>',
          `<head>\n    <meta name="dipswitch-trace-viewer" content="${attributeText(viewer)}" />`,
        )
      : page.text;
    return { status: 200, body: text, contentType: page.contentType };
  },

  simDashboardAsset: ({ params }) => {
    const asset = params.asset === 'index.html' ? null : dashboardAsset(params.asset);
    if (!asset) throw notFound('asset', params.asset);
    return { status: 200, body: asset.text, contentType: asset.contentType };
  },
} satisfies Partial<SimHandlerMap>;

/** Text as an HTML attribute's value holds it. */
const attributeText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
