/** `dipswitch serve` (the default command): the server, its banner, and a clean stop. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { Logger } from '../deps.js';
import { ALWAYS_REFUSED, type Deniable } from '../engine/transport/outbound.js';
import { LIMIT_FLAGS, type Limits } from '../limits.js';
import type { Runtime } from '../runtime.js';
import { buildServer, controlExposure, listen, listenSmpp } from '../server.js';
import { fixtureState, loadFixtureFile } from '../store/fixtures.js';
import { withoutPassword } from '../store/postgres/url.js';
import { DomainError } from '../domain/errors.js';
import type { MessageIdForm } from '../domain/smpp_addresses.js';
import { scenarioDirProblem } from '../testing/scenario_runner.js';
import type { LogLevel } from './log.js';
import { loggerOf } from './options.js';
import { listening, Stop, storeStop, version } from './stop.js';
import { ready, stopOn, unready } from './launched.js';
import { TracingRefused } from '../observability/tracing.js';

// ---- serve

/** The flags of serve; a bound's flag is named by its row of LIMIT_FLAGS (src/limits.ts). */
export interface ServeFlags extends Record<string, unknown> {
  port: number;
  host: string;
  data: string;
  memory?: boolean;
  store?: string;
  repair?: boolean;
  clock: 'real' | 'frozen';
  startTime?: Date;
  seed?: number;
  adminToken?: string;
  openSandboxes?: boolean;
  accountRate?: number;
  traceViewer?: string;
  unsafeOpenControl?: boolean;
  outboundAllow: string[];
  outboundDeny: Deniable[];
  cors: boolean;
  scenarios?: string;
  fixtures?: string;
  logLevel: LogLevel;
  quiet?: boolean;
  smpp: boolean;
  smppPort: number;
  /** The SMPP port was given (flag, environment, config file): it is not given up for another. */
  smppPortAsked?: boolean;
  smppMessageIds?: MessageIdForm;
  /** Where to write the launch contract once listening (docs/clients.md). */
  readyFile?: string;
  /** Stop when standard input closes. */
  exitWithStdin?: boolean;
  /** Stop when this process is gone. */
  parentPid?: number;
}

/** The bounds given as flags (each named by its row of LIMIT_FLAGS); the others keep their defaults. */
export function limitsOf(f: ServeFlags): Partial<Limits> {
  const given = LIMIT_FLAGS.map((l) => [l.key, f[new Option(l.flag).attributeName()]] as const);
  return Object.fromEntries(given.filter(([, v]) => v !== undefined));
}

export function outboundPolicy(f: ServeFlags): string {
  const reach = f.outboundAllow.length ? `only ${f.outboundAllow.join(', ')}` : 'any host';
  return `${reach}; never ${[...ALWAYS_REFUSED, ...f.outboundDeny].join(', ')} addresses`;
}

export async function banner(
  f: ServeFlags,
  server: Server,
  runtime: Runtime,
  logger: Logger,
  smppPort: number | null,
): Promise<void> {
  const base = `http://${f.host}:${(server.address() as AddressInfo).port}`;
  const control = f.adminToken
    ? `an account's own key acts on that account; the rest needs the header X-Sim-Admin-Token${f.openSandboxes ? ' (sandboxes open to all)' : ''}`
    : f.unsafeOpenControl
      ? 'OPEN to anyone who reaches it'
      : 'open (loopback only)';
  const clock = f.clock === 'frozen' ? `frozen at ${runtime.clocks.server().iso()}` : 'real';
  logger.info(`dipswitch ${version} serving ${base}/api/v1`);
  logger.info(`  control API ${base}/__sim: ${control}`);
  logger.info(`  dashboard ${base}/__sim/ui; OpenAPI ${base}/api/v1/openapi and ${base}/__sim/openapi`);
  const gaveWay = smppPort !== null && smppPort !== f.smppPort && f.smppPort !== 0;
  const smpp =
    smppPort === null
      ? 'off (--no-smpp)'
      : `smpp://${f.host}:${smppPort}${gaveWay ? ` (port ${f.smppPort} is in use: a free one instead)` : ''}`;
  logger.info(`  SMPP: ${smpp}`);
  const { location } = runtime.store;
  // a database's URL is shown as it was given, its password masked; a file by its whole path
  logger.info(`  store: ${f.store || location === 'memory' ? location : resolve(location)}`);
  logger.info(`  clock: ${clock}; CORS: ${f.cors ? 'on' : 'off'}; outbound: ${outboundPolicy(f)}`);
  if (f.scenarios) {
    const { scenarios, problems } = await runtime.scenarios.catalog();
    logger.info(`  scenarios: ${[...scenarios.keys()].sort().join(', ')}`);
    for (const problem of problems) logger.warn(`  not a scenario: ${problem}`);
  }
  const fixtures = runtime.fixtures();
  for (const account of fixtures.accounts) {
    const keys = fixtures.api_keys.filter((k) => k.account_id === account.data.id).map((k) => k.data.key);
    logger.info(`  ${account.data.name} (${account.data.id}): ${keys.join(', ')}`);
  }
}

/**
 * The SMPP server on its port; the default port (2775) taken by another process gives way to a free
 * one (the banner names it), so instances with stores of their own start side by side. A port asked
 * for is kept or refused.
 */
async function smppListening(runtime: Runtime, f: ServeFlags): Promise<{ port: number }> {
  try {
    return await listenSmpp(runtime, f.smppPort, f.host);
  } catch (e) {
    if (f.smppPortAsked || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    return listenSmpp(runtime, 0, f.host);
  }
}

/** The fixtures of a file, checked now (a bad file stops the start); read again at each reset. */
function fixturesFrom(path: string): () => ReturnType<typeof fixtureState> {
  try {
    loadFixtureFile(path);
  } catch (e) {
    throw new Stop((e as Error).message, 2);
  }
  // an edited file is taken; one that no longer passes is a 422 and changes nothing
  return () => {
    try {
      return fixtureState(loadFixtureFile(path));
    } catch (e) {
      throw new DomainError('invalid_parameter', [{ detail: (e as Error).message.replace(/\n\s*/g, ' ') }]);
    }
  };
}

export async function serve(f: ServeFlags): Promise<void> {
  const exposure = controlExposure(f.host, f.adminToken, f.unsafeOpenControl ?? false);
  if (exposure.refuse) throw new Stop(exposure.refuse, 2);
  if (f.scenarios) {
    const problem = scenarioDirProblem(f.scenarios);
    if (problem) throw new Stop(problem, 2);
  }
  const fixtures = f.fixtures === undefined ? undefined : fixturesFrom(f.fixtures);
  const logger = loggerOf(f);
  const { app, runtime } = await buildServer({
    store: f.store ? { postgres: f.store } : f.memory ? { memory: true } : { file: f.data, repair: f.repair },
    clockMode: f.clock,
    startTime: f.startTime,
    seed: f.seed,
    logger,
    simAdminToken: f.adminToken,
    openSandboxes: f.openSandboxes,
    accountRate: f.accountRate,
    traceViewer: f.traceViewer,
    smppMessageIds: f.smppMessageIds,
    outboundAllow: f.outboundAllow,
    outboundDeny: f.outboundDeny,
    cors: f.cors,
    scenarioDirs: f.scenarios ? [f.scenarios] : [],
    fixtures,
    limits: limitsOf(f),
  }).catch((e: unknown) => {
    if (e instanceof TracingRefused) throw new Stop(e.message, 2);
    storeStop(e);
    if (f.store) {
      throw new Stop(`cannot use the database ${withoutPassword(f.store)}: ${(e as Error).message}`, 1);
    }
    throw e;
  });
  if (exposure.warn) logger.warn(exposure.warn);
  const server = await listening(() => listen(app, f.port, f.host, runtime.limits), f.host, f.port).catch(
    async (e: unknown) => {
      await runtime.close();
      throw e;
    },
  );
  const smpp = f.smpp
    ? await listening(() => smppListening(runtime, f), f.host, f.smppPort, '--smpp-port').catch(async (e: unknown) => {
        server.close();
        await runtime.close();
        throw e;
      })
    : null;
  const url = `http://${f.host}:${(server.address() as AddressInfo).port}`;
  runtime.store.serving?.(url);
  // a clean stop (SIGTERM, SIGINT, the launcher gone) lets pending writes finish first
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    // the ready file goes last: a launcher waiting for it to go knows every pending write finished
    void runtime.close().finally(() => {
      if (f.readyFile) unready(f.readyFile, logger);
      process.exit(0);
    });
  };
  stopOn(f, logger, shutdown);
  await banner(f, server, runtime, logger, smpp?.port ?? null);
  if (f.readyFile) ready(f.readyFile, { url, smpp_port: smpp?.port ?? null, pid: process.pid, version });
}
