#!/usr/bin/env node
/**
 * The `dipswitch` command: `serve` (the default), `proxy`, `scenario` and `store repair`.
 *
 * Every flag has an environment variable (named in `--help`) and a key in a config file
 * (`--config FILE`, or ./dipswitch.config.json when there is one). The command line wins over the
 * environment, the environment over the file. A flag that is wrong stops the start with one line
 * and exit code 2; a start that fails (a port in use, a store it cannot write) with one line and
 * exit code 1.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { silentLogger, wallClock, type Logger } from '../deps.js';
import { projectRoot } from '../contract.js';
import { LOG_LEVELS, pinoLogger, type LogLevel } from './log.js';
import type { Runtime } from '../runtime.js';
import { buildServer, controlExposure, listen } from '../server.js';
import { ALWAYS_REFUSED, DENIABLE, type Deniable } from '../engine/transport/outbound.js';
import { formatTimeline } from '../testing/scenario.js';
import { ScenarioShelf, scenarioDirProblem } from '../testing/scenario_runner.js';
import { fixtureState, loadFixtureFile } from '../store/fixtures.js';
import { JsonStore } from '../store/embedded/json_store.js';
import { StoreInaccessible, StoreRefused } from '../store/embedded/log_file.js';

const CONFIG_FILE = 'dipswitch.config.json';

/** Ends the command with one line on standard error and `code`: 2 for what was asked, 1 for what failed. */
class Stop extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

const version = (JSON.parse(readFileSync(resolve(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

// ---- flag values

function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `a whole number of at least ${min} is needed`
          : `a whole number from ${min} to ${max} is needed`,
      );
    return n;
  };
}

function instant(raw: string): Date {
  // an ISO 8601 date and time with its offset, e.g. 2026-03-01T12:00:00Z
  const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw);
  const at = new Date(raw);
  if (!ok || Number.isNaN(at.getTime()))
    throw new InvalidArgumentError('an ISO 8601 time with its offset is needed, e.g. 2026-03-01T12:00:00Z');
  return at;
}

function hostList(raw: string): string[] {
  return raw
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
}

function denyList(raw: string): Deniable[] {
  const classes = hostList(raw);
  for (const c of classes)
    if (!(DENIABLE as readonly string[]).includes(c))
      throw new InvalidArgumentError(`it takes ${DENIABLE.join(', ')} (comma-separated), not ${c}`);
  return classes as Deniable[];
}

function postgresUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol === 'postgres:' || u.protocol === 'postgresql:') return raw;
  } catch {
    // said below
  }
  throw new InvalidArgumentError('a postgres:// URL is needed');
}

function url(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw;
  } catch {
    // said below
  }
  throw new InvalidArgumentError('an http:// or https:// URL is needed');
}

// ---- options shared by the commands

const opt = (flags: string, description: string, env?: string) => {
  const o = new Option(flags, description);
  return env ? o.env(env) : o;
};

function listenOptions(cmd: Command, defaultPort: number): Command {
  return cmd
    .addOption(
      opt('-p, --port <n>', 'port to listen on (0: any free one)', 'PORT')
        .argParser(wholeNumber(0, 65535))
        .default(defaultPort),
    )
    .addOption(opt('--host <address>', 'address to listen on', 'HOST').default('127.0.0.1'));
}

function logOptions(cmd: Command): Command {
  return cmd
    .addOption(
      opt('--log-level <level>', 'the least a log line must be to be written', 'LOG_LEVEL')
        .choices(LOG_LEVELS)
        .default('info'),
    )
    .addOption(opt('-q, --quiet', 'warnings and errors only (as --log-level warn)', 'QUIET'))
    .addOption(
      opt(
        '--config <file>',
        `a JSON file of defaults for these flags (./${CONFIG_FILE} when present)`,
        'DIPSWITCH_CONFIG',
      ),
    );
}

function loggerOf(opts: { logLevel: LogLevel; quiet?: boolean }): Logger {
  return pinoLogger(opts.quiet ? 'warn' : opts.logLevel);
}

// ---- the config file

/** The nearest of `candidates` to `word` (at most two edits away), for "did you mean". */
function nearest(word: string, candidates: string[]): string | undefined {
  // Levenshtein distance, one row at a time
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        const [up = 0, left = 0, diagonal = 0] = [row[j], next[j - 1], row[j - 1]];
        next[j] = Math.min(up + 1, left + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      row = next;
    }
    return row[b.length] ?? 0;
  };
  const scored = candidates.map((c) => [c, distance(word, c)] as const).filter(([, d]) => d <= 2);
  return scored.sort((x, y) => x[1] - y[1])[0]?.[0];
}

/** Fills the flags given neither on the command line nor in the environment from the config file. */
function applyConfig(cmd: Command): void {
  const given = cmd.getOptionValue('config') as string | undefined;
  const file = given ?? (existsSync(CONFIG_FILE) ? CONFIG_FILE : undefined);
  if (!file) return;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Stop(`${file}: ${(e as Error).message}`, 2);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new Stop(`${file}: a JSON object of flags is needed, e.g. {"port": 4010}`, 2);
  const options = cmd.options.filter((o) => o.long !== '--config');
  const keyOf = (o: Option) => (o.long ?? '').replace(/^--(no-)?/, '');
  const keys = options.map(keyOf);
  for (const [key, value] of Object.entries(config)) {
    const option = options.find((o) => keyOf(o) === key || o.attributeName() === key);
    if (!option) {
      const guess = nearest(key, keys);
      throw new Stop(`${file}: unknown key "${key}"${guess ? `, did you mean "${guess}"?` : ''}`, 2);
    }
    const name = option.attributeName();
    const source = cmd.getOptionValueSource(name);
    if (source === 'cli' || source === 'env') continue;
    const takesValue = option.required || option.optional;
    let parsed: unknown = value;
    if (!takesValue) {
      if (typeof value !== 'boolean') throw new Stop(`${file}: "${key}" must be true or false`, 2);
    } else {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw new Stop(`${file}: "${key}" must be a string or a number`, 2);
      try {
        parsed = option.parseArg ? option.parseArg(String(value), undefined as never) : String(value);
      } catch (e) {
        throw new Stop(`${file}: "${key}": ${(e as Error).message}`, 2);
      }
    }
    cmd.setOptionValueWithSource(name, parsed, 'config');
  }
}

// ---- start-up failures

/** A listen failure in one line, or null when it is not one of those. */
function listenFailure(e: unknown, host: string, port: number): Stop | null {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new Stop(`port ${port} on ${host} is in use: stop what holds it, or pick another with --port`, 1);
    case 'EADDRNOTAVAIL':
      return new Stop(`address ${host} is not one of this machine's: pick another with --host`, 1);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new Stop(`host ${host} cannot be resolved: pick another with --host`, 1);
    case 'EACCES':
    case 'EPERM':
      return new Stop(`no permission to listen on ${host}:${port}: pick a port above 1023`, 1);
    default:
      return null;
  }
}

/** A store the command was pointed at that is no store (exit 2), or one it cannot use (exit 1), as one line. */
function storeStop(e: unknown): void {
  if (e instanceof StoreRefused) throw new Stop(e.message, 2);
  if (e instanceof StoreInaccessible) throw new Stop(e.message, 1);
}

async function listening<T>(start: () => Promise<T>, host: string, port: number): Promise<T> {
  try {
    return await start();
  } catch (e) {
    throw listenFailure(e, host, port) ?? e;
  }
}

// ---- serve

interface ServeFlags {
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
  unsafeOpenControl?: boolean;
  outboundAllow: string[];
  outboundDeny: Deniable[];
  cors: boolean;
  scenarios?: string;
  fixtures?: string;
  journalBytes?: number;
  maxSnapshots?: number;
  snapshotBytes?: number;
  maxSandboxes?: number;
  headersTimeout?: number;
  requestTimeout?: number;
  maxConnections?: number;
  logLevel: LogLevel;
  quiet?: boolean;
}

function outboundPolicy(f: ServeFlags): string {
  const reach = f.outboundAllow.length ? `only ${f.outboundAllow.join(', ')}` : 'any host';
  return `${reach}; never ${[...ALWAYS_REFUSED, ...f.outboundDeny].join(', ')} addresses`;
}

function banner(f: ServeFlags, server: Server, runtime: Runtime, logger: Logger): void {
  const base = `http://${f.host}:${(server.address() as AddressInfo).port}`;
  const control = f.adminToken
    ? 'needs the header X-Sim-Admin-Token'
    : f.unsafeOpenControl
      ? 'OPEN to anyone who reaches it'
      : 'open (loopback only)';
  const clock = f.clock === 'frozen' ? `frozen at ${runtime.clocks.server().iso()}` : 'real';
  logger.info(`dipswitch ${version} serving ${base}/api/v1`);
  logger.info(`  control API ${base}/__sim: ${control}`);
  logger.info(`  store: ${runtime.store.location === 'memory' ? 'memory' : resolve(runtime.store.location)}`);
  logger.info(`  clock: ${clock}; CORS: ${f.cors ? 'on' : 'off'}; outbound: ${outboundPolicy(f)}`);
  if (f.scenarios) logger.info(`  scenarios: ${runtime.scenarios.names().join(', ')}`);
  const fixtures = runtime.fixtures();
  for (const account of fixtures.accounts) {
    const keys = fixtures.api_keys.filter((k) => k.account_id === account.data.id).map((k) => k.data.key);
    logger.info(`  ${account.data.name} (${account.data.id}): ${keys.join(', ')}`);
  }
}

async function serve(f: ServeFlags): Promise<void> {
  const exposure = controlExposure(f.host, f.adminToken, f.unsafeOpenControl ?? false);
  if (exposure.refuse) throw new Stop(exposure.refuse, 2);
  if (f.scenarios) {
    const problem = scenarioDirProblem(f.scenarios);
    if (problem) throw new Stop(problem, 2);
  }
  let fixtures;
  if (f.fixtures) {
    try {
      const file = loadFixtureFile(f.fixtures);
      fixtures = () => fixtureState(file);
    } catch (e) {
      throw new Stop((e as Error).message, 2);
    }
  }
  const logger = loggerOf(f);
  const { app, runtime } = await buildServer({
    store: f.store ? { postgres: f.store } : f.memory ? { memory: true } : { file: f.data, repair: f.repair },
    clockMode: f.clock,
    startTime: f.startTime,
    seed: f.seed,
    logger,
    simAdminToken: f.adminToken,
    outboundAllow: f.outboundAllow,
    outboundDeny: f.outboundDeny,
    cors: f.cors,
    scenarioDirs: f.scenarios ? [f.scenarios] : [],
    fixtures,
    limits: {
      journalBytes: f.journalBytes,
      snapshots: f.maxSnapshots,
      snapshotBytes: f.snapshotBytes,
      sandboxes: f.maxSandboxes,
      headersTimeoutMs: f.headersTimeout,
      requestTimeoutMs: f.requestTimeout,
      connections: f.maxConnections,
    },
  }).catch((e: unknown) => {
    storeStop(e);
    if (f.store) {
      const where = new URL(f.store);
      where.password = where.password ? '***' : '';
      throw new Stop(`cannot use the database ${where.toString()}: ${(e as Error).message}`, 1);
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
  // a clean stop (SIGTERM, SIGINT) lets pending writes finish first
  const shutdown = () => {
    server.close();
    void runtime.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  banner(f, server, runtime, logger);
}

// ---- proxy

async function proxy(f: { upstream: string; port: number; host: string; logLevel: LogLevel; quiet?: boolean }) {
  const logger = loggerOf(f);
  // the proxy module (and prism-http with it) is loaded only for this command
  const { startProxy } = await import('../proxy/proxy.js');
  const started = await listening(
    () =>
      startProxy({
        upstream: f.upstream,
        port: f.port,
        host: f.host,
        logger,
        now: () => new Date(wallClock()).toISOString(),
      }),
    f.host,
    f.port,
  );
  const port = (started.server.address() as AddressInfo).port;
  logger.info(
    `dipswitch ${version} validating proxy on http://${f.host}:${port} → ${f.upstream} (violations: GET /__proxy/violations)`,
  );
}

// ---- scenario

async function scenario(name: string | undefined, f: { scenarios?: string }): Promise<void> {
  if (f.scenarios) {
    const problem = scenarioDirProblem(f.scenarios);
    if (problem) throw new Stop(problem, 2);
  }
  const shelf = new ScenarioShelf(f.scenarios ? [f.scenarios] : []);
  if (!name || !shelf.names().includes(name)) {
    const known = `scenarios: ${shelf.names().join(', ')}`;
    throw new Stop(name ? `no scenario ${name}; ${known}` : `name a scenario; ${known}`, 2);
  }
  const { app, runtime } = await buildServer({
    store: { memory: true },
    seed: 1,
    clockMode: 'frozen',
    startTime: new Date('2026-03-01T12:00:00.000Z'),
    logger: silentLogger,
    scenarioDirs: f.scenarios ? [f.scenarios] : [],
  });
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const result = await runtime.scenarios.run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, name);
    console.log(formatTimeline(result));
    process.exitCode = result.passed ? 0 : 1;
  } finally {
    server.close();
    await runtime.close();
  }
}

// ---- store repair

async function repair(f: { data: string }): Promise<void> {
  const said: string[] = [];
  const logger: Logger = { info: (m) => said.push(m), warn: (m) => said.push(m) };
  const store = await JsonStore.open({ file: f.data, repair: true }, logger).catch((e: unknown) => {
    storeStop(e);
    throw e;
  });
  await store.close();
  for (const line of said) console.log(line);
  console.log(
    store.created
      ? `no store at ${resolve(f.data)}: nothing to repair`
      : `${resolve(f.data)}: ${said.length ? 'repaired' : 'sound, nothing to repair'}`,
  );
}

// ---- the program

function program(): Command {
  const root = new Command('dipswitch')
    .description("A contract-first simulator of the provider's Provisioning and Messaging Account API")
    .version(version, '-v, --version')
    .showSuggestionAfterError(true)
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .addHelpText('after', '\nWithout a command, dipswitch serves: `dipswitch serve --help` lists its flags.');

  const serveCmd = root
    .command('serve', { isDefault: true })
    .description('serve /api/v1 and the control API /__sim (the default command)');
  listenOptions(serveCmd, 4010)
    .addOption(opt('--data <file>', 'the store file', 'DATA_FILE').default('./data/db.json'))
    .addOption(opt('--memory', 'keep the store in memory only', 'MEMORY'))
    .addOption(
      opt(
        '--store <url>',
        'a PostgreSQL database (postgres://…) instead of the embedded store',
        'DATABASE_URL',
      ).argParser(postgresUrl),
    )
    .addOption(opt('--repair', 'start on a damaged store, keeping what is sound before the damage'))
    .addOption(
      opt('--clock <mode>', 'real: time runs; frozen: only the control API moves it', 'CLOCK')
        .choices(['real', 'frozen'])
        .default('real'),
    )
    .addOption(
      opt('--start-time <iso>', 'where the clocks start (ISO 8601); now by default', 'START_TIME').argParser(instant),
    )
    .addOption(opt('--seed <n>', 'repeatable ids and secrets', 'SEED').argParser(wholeNumber(0)))
    .addOption(opt('--fixtures <file>', 'the state an empty store and a reset start from', 'FIXTURES'))
    .addOption(
      opt('--scenarios <dir>', 'a folder of scenario files (.js, .mjs, .ts) besides the built-in ones', 'SCENARIOS'),
    )
    .addOption(opt('--admin-token <token>', 'guard /__sim: every call needs X-Sim-Admin-Token', 'SIM_ADMIN_TOKEN'))
    .addOption(opt('--unsafe-open-control', 'allow an unguarded /__sim on a non-loopback --host'))
    .addOption(
      opt(
        '--outbound-allow <hosts>',
        'hosts (or *.suffix) deliveries may reach, comma-separated; any when empty',
        'OUTBOUND_ALLOW',
      )
        .argParser(hostList)
        .default([]),
    )
    .addOption(
      opt('--outbound-deny <classes>', `address classes also refused: ${DENIABLE.join(', ')}`, 'OUTBOUND_DENY')
        .argParser(denyList)
        .default([]),
    )
    .addOption(opt('--no-cors', 'no CORS headers, no preflight answers'))
    .addOption(opt('--journal-bytes <n>', 'bytes the call journal keeps', 'JOURNAL_BYTES').argParser(wholeNumber(1)))
    .addOption(opt('--max-snapshots <n>', 'snapshots kept', 'MAX_SNAPSHOTS').argParser(wholeNumber(1)))
    .addOption(opt('--snapshot-bytes <n>', 'bytes all snapshots may hold', 'SNAPSHOT_BYTES').argParser(wholeNumber(1)))
    .addOption(opt('--max-sandboxes <n>', 'sandbox accounts', 'MAX_SANDBOXES').argParser(wholeNumber(1)))
    .addOption(
      opt('--headers-timeout <ms>', 'ms a request has to send its headers', 'HEADERS_TIMEOUT').argParser(
        wholeNumber(1),
      ),
    )
    .addOption(
      opt('--request-timeout <ms>', 'ms a request has to arrive whole', 'REQUEST_TIMEOUT').argParser(wholeNumber(1)),
    )
    .addOption(opt('--max-connections <n>', 'open connections', 'MAX_CONNECTIONS').argParser(wholeNumber(1)));
  logOptions(serveCmd).action(async (_opts, cmd: Command) => {
    applyConfig(cmd);
    await serve(cmd.opts<ServeFlags>());
  });

  const proxyCmd = root
    .command('proxy')
    .description('forward to the real service, checking every request and response against the contract');
  listenOptions(proxyCmd, 4011).addOption(
    opt('--upstream <url>', 'the real service, e.g. https://api.example.com', 'UPSTREAM').argParser(url),
  );
  logOptions(proxyCmd).action(async (_opts, cmd: Command) => {
    applyConfig(cmd);
    const f = cmd.opts<{ upstream?: string; port: number; host: string; logLevel: LogLevel; quiet?: boolean }>();
    if (!f.upstream) throw new Stop('proxy needs --upstream URL (or UPSTREAM)', 2);
    await proxy({ ...f, upstream: f.upstream });
  });

  root
    .command('scenario')
    .description('run one scenario against a fresh in-memory server and print its timeline')
    .argument('[name]', 'the scenario')
    .addOption(opt('--scenarios <dir>', 'a folder of scenario files besides the built-in ones', 'SCENARIOS'))
    .action((name: string | undefined, f: { scenarios?: string }) => scenario(name, f));

  const store = root.command('store').description('work on a store file');
  store
    .command('repair')
    .description('keep what is sound in a damaged store, dropping the damaged log lines and what follows')
    .addOption(opt('--data <file>', 'the store file', 'DATA_FILE').default('./data/db.json'))
    .action((f: { data: string }) => repair(f));

  return root;
}

/** `dipswitch` with `argv` (without node and the script); resolves to the exit code it wants, or undefined to keep running. */
export async function run(argv: string[]): Promise<number | undefined> {
  const root = program();
  const first = argv[0];
  const commands = root.commands.map((c) => c.name());
  if (first !== undefined && !first.startsWith('-') && !commands.includes(first) && first !== 'help') {
    const guess = nearest(first, commands);
    console.error(
      `dipswitch: unknown command '${first}'${guess ? `, did you mean ${guess}?` : ` (commands: ${commands.join(', ')})`}`,
    );
    return 2;
  }
  try {
    await root.parseAsync(argv, { from: 'user' });
    return undefined;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return 0;
      const line = e.message
        .replace(/^error: /, '')
        .replace(/\n\(Did you mean (.*)\?\)$/, ', did you mean $1?')
        .replace(/\n/g, ' ');
      console.error(`dipswitch: ${line}`);
      return 2;
    }
    if (e instanceof Stop) {
      console.error(`dipswitch: ${e.message}`);
      return e.code;
    }
    throw e;
  }
}

const code = await run(process.argv.slice(2));
if (code !== undefined) process.exit(code);
