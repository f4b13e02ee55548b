/** `npm start`: read configuration (interface.md section 1), build the server, listen; `npm start -- proxy --upstream URL` runs the validating proxy instead. */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { consoleLogger, wallClock } from './deps.js';
import { buildServer, listen } from './server.js';
import { StoreRefused } from './store/log_file.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    upstream: { type: 'string' },
    'admin-token': { type: 'string' },
    'outbound-allow': { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    memory: { type: 'boolean', default: false },
    repair: { type: 'boolean', default: false },
    clock: { type: 'string' },
    'start-time': { type: 'string' },
  },
});

const port = Number(values.port ?? process.env.PORT ?? 4010);
const host = values.host ?? process.env.HOST ?? '127.0.0.1';
const dataFile = values.data ?? process.env.DATA_FILE ?? './data/db.json';
const clockMode = values.clock === 'frozen' ? 'frozen' : 'real';
const startTime = values['start-time'] ? new Date(values['start-time']) : undefined;

if (positionals[0] === 'proxy') {
  if (!values.upstream) {
    console.error('usage: npm start -- proxy --upstream URL [--port N] [--host H]');
    process.exit(2);
  }
  // the proxy module (and prism-http with it) is loaded only for this command
  const { startProxy } = await import('./proxy.js');
  await startProxy({
    upstream: values.upstream,
    port,
    host,
    logger: consoleLogger,
    now: () => new Date(wallClock()).toISOString(),
  });
  consoleLogger.info(
    `dipswitch validating proxy on http://${host}:${port} → ${values.upstream} (violations: GET /__proxy/violations)`,
  );
} else {
  await serve().catch((e: unknown) => {
    if (!(e instanceof StoreRefused)) throw e;
    console.error(`dipswitch: ${e.message}`);
    process.exit(2);
  });
}

async function serve(): Promise<void> {
  const { app, runtime } = await buildServer({
    store: values.memory ? { memory: true } : { file: dataFile, repair: values.repair },
    clockMode,
    startTime,
    simAdminToken: values['admin-token'] ?? (process.env.SIM_ADMIN_TOKEN || undefined),
    outboundAllow: (values['outbound-allow'] ?? process.env.OUTBOUND_ALLOW ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
  });
  const server = await listen(app, port, host);

  // a clean stop (SIGTERM, SIGINT) lets pending writes finish first
  const shutdown = () => {
    server.close();
    void runtime.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);

  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  runtime.logger.info(`dipswitch serving ${base}/api/v1 (store: ${runtime.store.location})`);
  const fixtures = runtime.fixtures();
  for (const account of fixtures.accounts) {
    const keys = fixtures.api_keys.filter((k) => k.account_id === account.data.id).map((k) => k.data.key);
    runtime.logger.info(`  ${account.data.name} (${account.data.id}): ${keys.join(', ')}`);
  }
}
