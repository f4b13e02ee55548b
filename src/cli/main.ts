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
import { Command, CommanderError, Option } from 'commander';
import { DENIABLE } from '../engine/transport/outbound.js';
import { LIMIT_FLAGS, LIMIT_MIN } from '../limits.js';
import type { CheckReceiverFlags } from './commands.js';
import type { CoverageFlags } from './coverage.js';
import { changesCommands } from './changes_commands.js';
import type { ListenFlags } from './listen.js';
import { proxy, type ProxyFlags } from './proxy.js';
import { applyConfig, nearest } from './config.js';
import { launchOptions, listenOptions, logOptions, opt, smppOptions } from './options.js';
import type { ServeFlags } from './serve.js';
import { Stop, version } from './stop.js';
import { FeatureMissing, loadFeature } from '../domain/features.js';
import { denyList, hostList, instant, postgresUrl, url, wholeNumber, traceViewerUrl } from './values.js';

// ---- the program

/** `serve`, the default command, with its flags: listening, store, clock, fixtures, control guard, outbound, bounds. */
function serveCommand(root: Command): void {
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
    .addOption(opt('--repair', 'start on a damaged store, keeping what is sound before the damage', 'REPAIR'))
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
    .addOption(
      opt(
        '--admin-token <token>',
        "guard /__sim: what spans accounts needs X-Sim-Admin-Token; an account's own key acts on that account",
        'SIM_ADMIN_TOKEN',
      ),
    )
    .addOption(opt('--open-sandboxes', 'with --admin-token, anyone may still make a sandbox', 'OPEN_SANDBOXES'))
    .addOption(
      opt(
        '--account-rate <n>',
        "calls a second of one account; past it 429 rate_limited (dipswitch's own: none by default)",
        'ACCOUNT_RATE',
      ).argParser(wholeNumber(1)),
    )
    .addOption(
      opt(
        '--trace-viewer <url>',
        "a trace viewer's page of one trace, {trace_id} in it: the dashboard links each call's trace there",
        'TRACE_VIEWER',
      ).argParser(traceViewerUrl),
    )
    .addOption(
      opt('--unsafe-open-control', 'allow an unguarded /__sim on a non-loopback --host', 'UNSAFE_OPEN_CONTROL'),
    )
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
    .addOption(opt('--no-cors', 'no CORS headers, no preflight answers', 'NO_CORS'));
  smppOptions(serveCmd);
  launchOptions(serveCmd);
  for (const l of LIMIT_FLAGS) serveCmd.addOption(opt(l.flag, l.help, l.env).argParser(wholeNumber(LIMIT_MIN)));
  logOptions(serveCmd).action(async (_opts, cmd: Command) => {
    applyConfig(cmd);
    storeContradiction(cmd);
    // the default SMPP port, taken by another instance, gives way to a free one; a port asked for does not
    const smppPortAsked = cmd.getOptionValueSource('smppPort') !== 'default';
    await (await import('./serve.js')).serve({ ...cmd.opts<ServeFlags>(), smppPortAsked });
  });
}

/** `coverage`: what a client suite met of the contract, from a running dipswitch. */
function coverageCommand(root: Command): void {
  root
    .command('coverage')
    .description('what a client suite met of the contract on a running dipswitch; --fail-under makes it a CI gate')
    .addOption(
      new Option('--url <url>', 'the dipswitch, e.g. http://127.0.0.1:4010').argParser(url).makeOptionMandatory(),
    )
    .option('--key <key>', "an account's key: that account's coverage (every account's without)")
    .addOption(
      new Option('--run <run>', 'the sandboxes made for this run (DIPSWITCH_RUN), live and removed').env(
        'DIPSWITCH_RUN',
      ),
    )
    .option('--account-id <id>', 'one account, live or removed')
    .option('--admin-token <token>', 'the admin token, where the server has one')
    .addOption(
      new Option('--fail-under <percent>', 'exit 1 when the documented answers seen are under this percentage')
        .env('DIPSWITCH_FAIL_UNDER')
        .argParser(wholeNumber(0, 100)),
    )
    .addOption(
      new Option('--format <format>', 'how to print it')
        .choices(['table', 'json', 'junit', 'markdown'])
        .default('table'),
    )
    .action(async (f: CoverageFlags) => (await import('./coverage.js')).coverage(f));
}

/** `features`: the optional features (src/domain/features.ts), installed or not. */
function featuresCommand(root: Command): void {
  root
    .command('features')
    .description('which optional features have their packages installed, and the line that adds the others')
    .option('--packages', "print every feature's packages as name@range, one a line (for npm exec --package)")
    .action(async (f: { packages?: boolean }) => (await import('./commands.js')).features(f));
}

/** `mcp`: an MCP server on stdin and stdout over a running dipswitch (src/mcp/server.ts). */
function mcpCommand(root: Command): void {
  root
    .command('mcp')
    .description('an MCP server on stdin and stdout for a local agent: both APIs as tools, against a running dipswitch')
    .addOption(
      new Option('--url <url>', 'the dipswitch, e.g. http://127.0.0.1:4010')
        .env('DIPSWITCH_URL')
        .argParser(url)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--key <key>', "an account's key: the tools act as that account").env('DIPSWITCH_KEY'))
    .addOption(
      new Option('--admin-token <token>', "the control API's admin token, where the server has one").env(
        'DIPSWITCH_ADMIN_TOKEN',
      ),
    )
    .action(async (f: { url: string; key?: string; adminToken?: string }) =>
      (await loadFeature('mcp', () => import('./mcp.js'))).mcp(f),
    );
}

/** `listen`: a hosted dipswitch's deliveries forwarded to a local URL (src/cli/listen.ts). */
function listenCommand(root: Command): void {
  root
    .command('listen')
    .description("receive an account's deliveries from a (hosted) dipswitch and forward each to a local URL")
    .addOption(
      new Option('--url <url>', 'the dipswitch, e.g. https://sandbox.example.com')
        .env('DIPSWITCH_URL')
        .argParser(url)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--key <key>', "the account's or sandbox's key").env('DIPSWITCH_KEY').makeOptionMandatory())
    .addOption(
      new Option('--forward-to <url>', "where each delivery goes; the target's path and query are kept under it")
        .env('DIPSWITCH_FORWARD_TO')
        .argParser(url)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--name <name>', 'receive the targets http(s)://NAME.listen.invalid')
        .env('DIPSWITCH_LISTEN_NAME')
        .default('default'),
    )
    .addOption(
      new Option('--give-up <ms>', 'a server that never answered once is given up after this long (exit 1)')
        .env('DIPSWITCH_LISTEN_GIVE_UP')
        .argParser(wholeNumber(1))
        .default(30_000),
    )
    .addOption(
      new Option('--all', 'receive every HTTP delivery of the account, whatever its target').env(
        'DIPSWITCH_LISTEN_ALL',
      ),
    )
    .action(async (f: ListenFlags) => (await import('./listen.js')).listen(f));
}

/** The command line: every command and flag (its environment variable with it). */
export function program(): Command {
  const root = new Command('dipswitch')
    .description("A contract-first simulator of the provider's Provisioning and Messaging Account API")
    .version(version, '-v, --version')
    .showSuggestionAfterError(true)
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .addHelpText('after', '\nWithout a command, dipswitch serves: `dipswitch serve --help` lists its flags.');

  serveCommand(root);

  const proxyCmd = root
    .command('proxy')
    .description('forward to the real service, checking every request and response against the contract');
  listenOptions(proxyCmd, 4020)
    .addOption(opt('--upstream <url>', 'the real service, e.g. https://api.example.com', 'UPSTREAM').argParser(url))
    .addOption(opt('--record <dir>', 'write every /api/v1 call to DIR as a scenario that replays it', 'RECORD'))
    .addOption(
      opt('--record-fixtures', 'and the records the real service returned as a fixture file', 'RECORD_FIXTURES'),
    )
    .addOption(opt('--shadow', 'make each call again to an in-process dipswitch and compare the answers', 'SHADOW'))
    .addOption(opt('--parity-report <file>', 'write the comparison to FILE.md and FILE.json at exit', 'PARITY_REPORT'));
  logOptions(proxyCmd).action(async (_opts, cmd: Command) => {
    applyConfig(cmd);
    const f = cmd.opts<Omit<ProxyFlags, 'upstream'> & { upstream?: string }>();
    if (!f.upstream) throw new Stop('proxy needs --upstream URL (or UPSTREAM)', 2);
    await proxy({ ...f, upstream: f.upstream });
  });

  root
    .command('check-receiver')
    .description('send a receiver what dipswitch would send it, then the hard cases; exits 1 when one fails')
    .argument('<url>', 'the receiver, http:// or https://', url)
    .addOption(
      new Option('--kind <kind>', 'what it receives')
        .choices(['event', 'cdr', 'sms', 'mms', 'route'])
        .makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--auth <method>',
        'the auth it expects (default: HMAC_SHA256 for sms and mms with a --secret, BEARER for the others, NONE without one)',
      ).choices(['NONE', 'BASIC', 'BEARER', 'HMAC_SHA256']),
    )
    .option('--identity <user>', 'the BASIC user')
    .option('--secret <secret>', 'the BASIC password, BEARER token or HMAC_SHA256 signing secret')
    .option('--format <format>', "the switch's message format (sms, mms; the JSON one by default)")
    .option('--json', 'print the results as JSON')
    .action(async (target: string, f: CheckReceiverFlags) => (await import('./commands.js')).checkReceiver(target, f));

  coverageCommand(root);
  changesCommands(root);

  mcpCommand(root);

  listenCommand(root);

  root
    .command('scenario')
    .description('run one scenario against a fresh in-memory server and print its timeline')
    .argument('[name]', 'the scenario')
    .addOption(opt('--scenarios <dir>', 'a folder of scenario files besides the built-in ones', 'SCENARIOS'))
    .addOption(opt('--fixtures <file>', "the state the server starts from (a recording's fixture file)", 'FIXTURES'))
    .action(async (name: string | undefined, f: { scenarios?: string; fixtures?: string }) =>
      (await import('./commands.js')).scenario(name, f),
    );

  featuresCommand(root);

  const store = root.command('store').description('work on a store file');
  store
    .command('repair')
    .description('keep what is sound in a damaged store, dropping the damaged log lines and what follows')
    .addOption(opt('--data <file>', 'the store file', 'DATA_FILE').default('./data/db.json'))
    .action(async (f: { data: string }) => (await import('./commands.js')).repair(f));

  return root;
}

/**
 * Store flags that say opposite things are refused, not settled silently: `--memory` keeps nothing, so
 * `--data FILE` or `--store URL` beside it (from the command line, the environment or the config file)
 * cannot both be meant.
 */
function storeContradiction(cmd: Command): void {
  if (!cmd.getOptionValue('memory')) return;
  for (const [name, flag] of [
    ['data', '--data'],
    ['store', '--store'],
  ] as const) {
    const source = cmd.getOptionValueSource(name);
    if (source !== undefined && source !== 'default')
      throw new Stop(
        `--memory keeps nothing, and ${flag} (from the ${source}) says where to keep the store: give one`,
        2,
      );
  }
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/**
 * The environment variables of flags: one set but empty counts as unset (`HOST=` is no address); a
 * switch's (`MEMORY`) is read as true or false (`MEMORY=false` is off), and any other value is
 * refused. Answers the refusal, if there is one.
 */
function readEnvironment(root: Command): string | undefined {
  for (const cmd of [root, ...root.commands])
    for (const o of cmd.options) {
      const value = o.envVar === undefined ? undefined : process.env[o.envVar];
      if (o.envVar === undefined || value === undefined) continue;
      if (value === '') delete process.env[o.envVar];
      else if (!o.required && !o.optional) {
        if (FALSE.includes(value.toLowerCase())) delete process.env[o.envVar];
        else if (!TRUE.includes(value.toLowerCase()))
          return `${o.envVar}=${value} is neither true nor false (${o.long}): give ${TRUE[0]} or ${FALSE[0]}`;
      }
    }
  return undefined;
}

/** `dipswitch` with `argv` (without node and the script); resolves to the exit code it wants, or undefined to keep running. */
export async function run(argv: string[]): Promise<number | undefined> {
  const root = program();
  const refused = readEnvironment(root);
  if (refused) {
    console.error(`dipswitch: ${refused}`);
    return 2;
  }
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
    if (e instanceof FeatureMissing) {
      console.error(`dipswitch: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

const code = await run(process.argv.slice(2));
if (code !== undefined) process.exit(code);
