/** `npm start`: read configuration (interface.md section 1), build the server, listen; `npm start -- proxy --upstream URL` runs the validating proxy instead. */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { consoleLogger, wallClock } from './deps.js';
import { buildServer, controlExposure, listen } from './server.js';
import { DENIABLE, type Deniable } from './sim/outbound.js';
import { StoreRefused } from './store/log_file.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    upstream: { type: 'string' },
    'admin-token': { type: 'string' },
    'outbound-allow': { type: 'string' },
    'outbound-deny': { type: 'string' },
    'unsafe-open-control': { type: 'boolean', default: false },
    'journal-bytes': { type: 'string' },
    'max-snapshots': { type: 'string' },
    'snapshot-bytes': { type: 'string' },
    'max-sandboxes': { type: 'string' },
    'headers-timeout': { type: 'string' },
    'request-timeout': { type: 'string' },
    'max-connections': { type: 'string' },
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

/** Stops at start with one line (exit 2). */
function refuse(message: string): never {
  console.error(`dipswitch: ${message}`);
  process.exit(2);
}

/** A whole-number flag of at least 1, or the default when absent. */
function count(flag: keyof typeof values): number | undefined {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) refuse(`--${flag} must be a whole number of at least 1, not ${String(raw)}`);
  return n;
}

function outboundDeny(): Deniable[] {
  const raw = (values['outbound-deny'] ?? process.env.OUTBOUND_DENY ?? '').split(',').map((c) => c.trim());
  const classes = raw.filter(Boolean);
  for (const c of classes)
    if (!(DENIABLE as readonly string[]).includes(c))
      refuse(`--outbound-deny takes ${DENIABLE.join(', ')} (comma-separated), not ${c}`);
  return classes as Deniable[];
}

async function serve(): Promise<void> {
  const adminToken = values['admin-token'] ?? (process.env.SIM_ADMIN_TOKEN || undefined);
  const exposure = controlExposure(host, adminToken, values['unsafe-open-control']);
  if (exposure.refuse) refuse(exposure.refuse);
  const { app, runtime } = await buildServer({
    store: values.memory ? { memory: true } : { file: dataFile, repair: values.repair },
    clockMode,
    startTime,
    simAdminToken: adminToken,
    outboundAllow: (values['outbound-allow'] ?? process.env.OUTBOUND_ALLOW ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    outboundDeny: outboundDeny(),
    limits: {
      journalBytes: count('journal-bytes'),
      snapshots: count('max-snapshots'),
      snapshotBytes: count('snapshot-bytes'),
      sandboxes: count('max-sandboxes'),
      headersTimeoutMs: count('headers-timeout'),
      requestTimeoutMs: count('request-timeout'),
      connections: count('max-connections'),
    },
  });
  if (exposure.warn) runtime.logger.warn(`dipswitch: ${exposure.warn}`);
  const server = await listen(app, port, host, runtime.limits);

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
