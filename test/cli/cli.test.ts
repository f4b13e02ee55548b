// The `dipswitch` command as a new user meets it: each row of issue 16's table, run as a process.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Command, Option } from 'commander';
import { projectRoot } from '../../src/contract.js';
import { program } from '../../src/cli/main.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { COMMAND, eventually, freePort, runCli, startCli } from '../support/cli_process.js';
import { DEMO, envelope, useServer } from '../support/helpers.js';

const scratch = (name: string) => mkdtempSync(join(tmpdir(), `dipswitch-cli-${name}-`));

/** The one line a refused start writes, after checking there is exactly one. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
}

/** The flags of a command without an environment variable (a container sets only the environment). */
const withoutEnvironment = (cmd: Command): string[] =>
  cmd.options.filter((o) => !o.envVar).map((o) => o.long ?? o.flags);

describe('dipswitch: help, version and flags', () => {
  it('every flag of serve has an environment variable, each in the table of docs/running.md', () => {
    const serve = program().commands.find((c) => c.name() === 'serve')!;
    expect(withoutEnvironment(serve)).toEqual([]);
    expect(withoutEnvironment(new Command('x').addOption(new Option('--no-thing')))).toEqual(['--no-thing']);
    const doc = readFileSync(join(projectRoot, 'docs', 'running.md'), 'utf8');
    expect(serve.options.filter((o) => !doc.includes(`\`${o.envVar}\``)).map((o) => o.envVar)).toEqual([]);
  });

  it('switches by environment alone: NO_SMPP, NO_CORS', async () => {
    const cli = await startCli(['--memory', '--port', '0'], { env: { NO_SMPP: 'true', NO_CORS: 'yes' } });
    try {
      await eventually(() => cli.out().includes('CORS: off'), 'the banner');
      expect(cli.out()).toContain('SMPP: off');
    } finally {
      await cli.stop();
    }
  });

  it('--help prints the usage with the commands, --version the version; both exit 0', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: dipswitch');
    for (const command of ['serve', 'proxy', 'scenario', 'store']) expect(help.stdout).toContain(command);
    const serveHelp = runCli(['serve', '--help']);
    expect(serveHelp.stdout).toMatch(/--port <n>.*\n?.*env: PORT/);
    expect(serveHelp.stdout).toContain('env: SIM_ADMIN_TOKEN');
    const version = runCli(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version,
    );
  });

  it.each([
    [['--prot', '4010'], "unknown option '--prot', did you mean --port?"],
    [['--port', 'abc'], "option '-p, --port <n>' argument 'abc' is invalid"],
    [['--port', '70000'], 'a whole number from 0 to 65535 is needed'],
    [['--start-time', 'yesterday'], "option '--start-time <iso>' argument 'yesterday' is invalid"],
    [['--clock', 'frozn'], 'Allowed choices are real, frozen'],
    [['--outbound-deny', 'public'], 'it takes private, loopback'],
    [['--log-level', 'loud'], "argument 'loud' is invalid"],
    [['serv'], "unknown command 'serv', did you mean serve?"],
    [['proxy'], 'proxy needs --upstream URL'],
    [['proxy', '--upstream', 'ftp://example.test'], 'an http:// or https:// URL is needed'],
    // contradictions are refused, never settled silently (the test adds --memory)
    [['--data', './elsewhere.json'], '--memory keeps nothing, and --data (from the cli) says where to keep the store'],
    [['--store', 'postgres://127.0.0.1/db'], '--memory keeps nothing, and --store (from the cli)'],
  ])('%j is refused at start with one line and exit code 2', (args, says) => {
    const run = runCli([...args, '--memory'].filter((a) => !(args[0] === 'proxy' && a === '--memory')));
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toContain(says);
    expect(oneLine(run.stderr)).toMatch(/^dipswitch: /);
  });

  it('an environment variable is checked as its flag is', () => {
    const run = runCli(['--memory'], { env: { PORT: 'abc' } });
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toContain("from env 'PORT' is invalid");
    const clock = runCli(['--memory'], { env: { CLOCK: 'frozn' } });
    expect(clock.status).toBe(2);
  });

  it('a switch from the environment is read as true or false: MEMORY=false keeps the store on disk', async () => {
    const maybe = runCli([], { env: { MEMORY: 'maybe' } });
    expect(maybe.status).toBe(2);
    expect(oneLine(maybe.stderr)).toBe(
      'dipswitch: MEMORY=maybe is neither true nor false (--memory): give true or false',
    );
    const both = runCli(['--data', join(scratch('memory-both'), 'db.json')], { env: { MEMORY: 'true' } });
    expect(both.status).toBe(2);
    expect(oneLine(both.stderr)).toContain('--memory keeps nothing');
    const data = join(scratch('memory-false'), 'db.json');
    const server = await startCli(['--data', data, '--port', '0'], { env: { MEMORY: 'false' } });
    try {
      await eventually(() => server.out().includes(`store: ${data}`), 'the banner to name the store file');
    } finally {
      await server.stop();
    }
  });

  it('an empty environment variable counts as unset (HOST= is no address)', async () => {
    const server = await startCli(['--memory', '--port', '0'], { env: { HOST: '', CLOCK: '' } });
    try {
      expect(server.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await server.stop();
    }
  });

  it('a config file gives defaults; an unknown key or a bad value is refused with one line', async () => {
    const dir = scratch('config');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ prot: 4010 }));
    const unknown = runCli(['--config', bad]);
    expect(unknown.status).toBe(2);
    expect(oneLine(unknown.stderr)).toBe(`dipswitch: ${bad}: unknown key "prot", did you mean "port"?`);
    writeFileSync(bad, JSON.stringify({ clock: 'frozn' }));
    expect(oneLine(runCli(['--config', bad]).stderr)).toContain('"clock"');

    // the command line wins over the file; the file over the defaults
    const port = await freePort();
    const good = join(dir, 'dipswitch.config.json');
    writeFileSync(good, JSON.stringify({ port: 1, memory: true, clock: 'frozen', cors: false }));
    const server = await startCli(['--config', good, '--port', String(port)]);
    try {
      expect(server.base).toBe(`http://127.0.0.1:${port}`);
      await eventually(() => server.out().includes('Partner'));
      expect(server.out()).toContain('clock: frozen at');
      expect(server.out()).toContain('CORS: off');
    } finally {
      await server.stop();
    }
  });
});

describe('dipswitch: start-up failures', () => {
  it('a port in use: one line, exit 1, for the server and for the proxy', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const server = runCli(['--memory', '--port', String(port)]);
      expect(server.status).toBe(1);
      expect(oneLine(server.stderr)).toBe(
        `dipswitch: port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another with --port`,
      );
      const smpp = runCli(['--memory', '--port', '0', '--smpp-port', String(port)]);
      expect(smpp.status).toBe(1);
      expect(oneLine(smpp.stderr)).toBe(
        `dipswitch: port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another with --smpp-port`,
      );
      const proxy = runCli(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', String(port)]);
      expect(proxy.status).toBe(1);
      expect(oneLine(proxy.stderr)).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      holder.close();
    }
  });

  it('an address that is not this machine’s: one line, exit 1', () => {
    // 192.0.2.0/24 is TEST-NET-1: never a local address; binding sends nothing
    const run = runCli(['--memory', '--host', '192.0.2.7', '--admin-token', 'x', '--port', '0']);
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      "dipswitch: address 192.0.2.7 is not one of this machine's: pick another with --host",
    );
  });

  it('a store under /proc: one line, exit 1, rather than a start that never ends', () => {
    const run = runCli(['--data', '/proc/dipswitch-no/db.json', '--port', '0']);
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      'dipswitch: cannot use the store /proc/dipswitch-no/db.json: /proc/dipswitch-no: no such file or folder (ENOENT)',
    );
  });

  it('a store that is a FIFO or a device: one line, exit 1, rather than a wait, a crash or a damaged snapshot', () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'dipswitch-fifo-')), 'db.json');
    spawnSync('mkfifo', [fifo]);
    for (const path of [fifo, '/dev/zero', '/dev/null']) {
      const run = runCli(['--data', path, '--port', '0']);
      expect(run.status, path).toBe(1);
      expect(oneLine(run.stderr)).toBe(
        `dipswitch: cannot use the store ${path}: ${path}: not a regular file (a FIFO, a device or a socket): give the path of a file`,
      );
    }
  });

  it('a store it cannot write: one line naming the folder, exit 1', () => {
    // root writes through file modes, so the folder is one no one may write to (sysfs) when run as root
    const asRoot = process.getuid?.() === 0;
    const folder = asRoot ? '/sys' : join(scratch('readonly'), 'data');
    if (!asRoot) {
      mkdirSync(folder);
      chmodSync(folder, 0o555);
    }
    const run = runCli(['--data', join(folder, 'db.json'), '--port', '0']);
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toMatch(
      new RegExp(`^dipswitch: cannot use the store ${join(folder, 'db.json')}: ${folder}: permission denied`),
    );
  });

  it('a store path through a file: one line, exit 1; a file that is no store: one line, exit 2', () => {
    const dir = scratch('notdir');
    writeFileSync(join(dir, 'db.json'), '{}');
    const notDir = runCli(['--data', join(dir, 'db.json', 'inner.json'), '--port', '0']);
    expect(notDir.status).toBe(1);
    expect(oneLine(notDir.stderr)).toContain('a part of the path is not a folder (ENOTDIR)');
    const pkg = join(dir, 'package.json');
    copyFileSync(join(projectRoot, 'package.json'), pkg);
    const refused = runCli(['--data', pkg, '--port', '0']);
    expect(refused.status).toBe(2);
    expect(oneLine(refused.stderr)).toContain(`${pkg} is not a dipswitch store`);
  });
});

describe('dipswitch: logs', () => {
  it('the banner says the URL, store, clock mode, control API guard and outbound policy', async () => {
    const dir = scratch('banner');
    const server = await startCli([
      '--data',
      join(dir, 'db.json'),
      '--port',
      '0',
      '--clock',
      'frozen',
      '--start-time',
      '2026-03-01T12:00:00Z',
      '--admin-token',
      'sesame',
      '--outbound-allow',
      '127.0.0.1',
      '--outbound-deny',
      'private',
    ]);
    try {
      await eventually(() => server.out().includes('Partner'));
      const banner = server.lines().map((l) => l.msg as string);
      expect(banner[0]).toMatch(/^dipswitch \d+\.\d+\.\d+ serving http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(banner).toContain(
        `  control API ${server.base}/__sim: an account's own key acts on that account; the rest needs the header X-Sim-Admin-Token`,
      );
      expect(banner).toContain(
        `  dashboard ${server.base}/__sim/ui; OpenAPI ${server.base}/api/v1/openapi and ${server.base}/__sim/openapi`,
      );
      // the suite's SMPP_PORT=0 (vitest.config.ts): a free port, named
      expect(banner.find((l) => l.startsWith('  SMPP: '))).toMatch(/^ {2}SMPP: smpp:\/\/127\.0\.0\.1:\d+$/);
      expect(banner).toContain(`  store: ${join(dir, 'db.json')}`);
      expect(banner).toContain(
        '  clock: frozen at 2026-03-01T12:00:00.000Z; CORS: on; outbound: only 127.0.0.1; never unspecified, metadata, link-local, multicast, private addresses',
      );
    } finally {
      await server.stop();
    }
  });

  it('one JSON line per /api/v1 call, per delivery attempt (password redacted), per fault fired and per step', async () => {
    const receiver = await startReceiver();
    const server = await startCli(['--memory', '--port', '0', '--clock', 'frozen']);
    try {
      const auth = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };
      const target = receiver.url.replace('http://', 'http://hook:hunter2@');
      const sub = await fetch(`${server.base}/api/v1/event_subscriptions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(
          envelope('event_subscription', { protocol: 'HTTP', data: `${target}/e`, topics: ['DID', 'ORDER'] }),
        ),
      });
      expect(sub.status).toBe(201);
      await fetch(`${server.base}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: { method: 'GET', path: '/api/v1/carts' }, effect: { status: 503 }, times: 1 }),
      });
      expect((await fetch(`${server.base}/api/v1/carts`, { headers: auth })).status).toBe(503);
      const numbers = (await (await fetch(`${server.base}/api/v1/numbers`, { headers: auth })).json()) as {
        results: { data: { id: string } }[];
      };
      const id = numbers.results[0]!.data.id;
      await fetch(`${server.base}/api/v1/numbers/${id}`, {
        method: 'PATCH',
        headers: auth,
        body: JSON.stringify(envelope('did', { description: 'logged' })),
      });
      await eventually(() => receiver.received.length > 0);
      await eventually(() => server.lines().some((l) => l.kind === 'delivery'));
      const lines = server.lines();
      const call = lines.find((l) => l.kind === 'call' && l.operation === 'listNumbers');
      expect(call).toMatchObject({
        level: 30,
        method: 'GET',
        path: '/api/v1/numbers',
        status: 200,
        account: DEMO,
      });
      expect(call!.ms).toEqual(expect.any(Number));
      expect(call!.msg).toMatch(/^GET \/api\/v1\/numbers 200 [\d.]+ ms$/);
      expect(lines.find((l) => l.kind === 'fault')?.msg).toBe('fault fired on GET /api/v1/carts');
      const delivery = lines.find((l) => l.kind === 'delivery')!;
      expect(delivery.msg).toMatch(/^delivery event to .* answered 200$/);
      expect(server.out()).not.toContain('hunter2');
      expect(server.out()).not.toContain('/__sim/faults');
    } finally {
      await server.stop();
      await receiver.close();
    }
  });

  it('--quiet keeps the info lines out; the server still answers', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...COMMAND, '--memory', '--quiet', '--port', String(port)], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const status = await eventually(
        () =>
          fetch(`http://127.0.0.1:${port}/api/v1/carts`, { headers: { authorization: 'Bearer demo-admin-key' } })
            .then((r) => (r.status === 200 ? r.status : 0))
            .catch(() => 0),
        'the server to answer',
        20_000,
      );
      expect(status).toBe(200);
      expect(out).toBe('');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('every call’s log line is out when a stopped server exits (the log is written asynchronously)', async () => {
    const server = await startCli(['--memory', '--no-smpp', '--port', '0']);
    const headers = { authorization: 'Bearer demo-admin-key' };
    const statuses = await Promise.all(
      Array.from({ length: 300 }, () => fetch(`${server.base}/api/v1/api_keys`, { headers }).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    // stopped at once, the lines still pending are written on the way out
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    expect(server.lines().filter((l) => l.operation === 'listApiKeys')).toHaveLength(300);
  });
});

describe('CORS', () => {
  const server = useServer();

  it('a preflight is answered and the caller’s Origin echoed, on /api/v1 and /__sim', async () => {
    for (const path of ['/api/v1/carts', '/__sim/clock']) {
      const res = await fetch(`${server().base}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example');
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
      expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    }
    const res = await server().call('GET', '/api/v1/carts', { headers: { origin: 'http://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example');
  });

  it('--no-cors: no CORS headers, and OPTIONS is an ordinary call the API does not have', async () => {
    const cli = await startCli(['--memory', '--port', '0', '--no-cors']);
    try {
      const res = await fetch(`${cli.base}/api/v1/carts`, {
        method: 'OPTIONS',
        headers: { origin: 'http://app.example', 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await cli.stop();
    }
  });
});

describe('durations', () => {
  const server = useServer();

  it('P1M and P1Y2M are ISO 8601 durations: calendar months and years', async () => {
    const set = await server().call('POST', '/__sim/clock/advance', {
      key: null,
      body: { to: '2026-03-31T12:00:00Z' },
    });
    expect(set.status).toBe(200);
    const month = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P1M' } });
    expect(month.status).toBe(200);
    expect(month.body.now).toBe('2026-04-30T12:00:00.000Z');
    const more = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P1Y2M' } });
    expect(more.body.now).toBe('2027-06-30T12:00:00.000Z');
    const bad = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P1Q' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].detail).toBe(
      'by must be an ISO 8601 duration of years, months, weeks, days, hours, minutes and seconds (seconds may have a fraction).',
    );
    // what the pattern lets through, Temporal still reads: more than 9999 years is refused by the handler
    const huge = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'P999999Y' } });
    expect(huge.status).toBe(422);
  });
});

describe('dipswitch: the user’s scenarios and fixtures', () => {
  it('--scenarios DIR: .js and .ts scenarios beside the built-in ones, for the control API and `dipswitch scenario`', async () => {
    const dir = scratch('scenarios');
    writeFileSync(
      join(dir, 'list-carts.js'),
      `export default {
  name: 'list-carts',
  title: 'The Demo admin lists carts',
  async run(s) {
    const r = await s.api('GET', '/api/v1/carts');
    s.expect(r.status === 200, 'carts are listed');
  },
};
`,
    );
    writeFileSync(
      join(dir, 'typed-clock.ts'),
      `import type { ScenarioContext } from 'dipswitch';

export default {
  name: 'typed-clock',
  title: 'The clock moves a minute',
  async run(s: ScenarioContext): Promise<void> {
    const moved = await s.advance('PT1M');
    s.expect(typeof moved.now === 'string', 'the clock moved');
  },
};
`,
    );
    // the DSL imported by name from a folder with no dipswitch installed: the command resolves it to itself
    writeFileSync(
      join(dir, 'with-dsl.mjs'),
      `import { scenario } from 'dipswitch';
export default scenario('with-dsl', 'the DSL from anywhere', async (s) => {
  s.expect((await s.api('GET', '/api/v1/carts')).status === 200, 'carts are listed');
});
`,
    );
    const cli = await startCli(['--memory', '--port', '0', '--clock', 'frozen', '--scenarios', dir]);
    try {
      const listed = (await (await fetch(`${cli.base}/__sim/scenarios`)).json()) as { scenarios: string[] };
      expect(listed.scenarios).toEqual(
        expect.arrayContaining(['cart-to-order', 'list-carts', 'typed-clock', 'with-dsl']),
      );
      for (const name of ['list-carts', 'typed-clock', 'with-dsl']) {
        const run = (await (await fetch(`${cli.base}/__sim/scenarios/${name}`, { method: 'POST' })).json()) as {
          passed: boolean;
        };
        expect(run.passed, name).toBe(true);
      }
    } finally {
      await cli.stop();
    }
    const once = runCli(['scenario', 'typed-clock', '--scenarios', dir]);
    expect(once.status, once.stderr).toBe(0);
    expect(once.stdout).toContain('the clock moved');
    const missing = runCli(['--memory', '--scenarios', join(dir, 'nope')]);
    expect(missing.status).toBe(2);
    expect(oneLine(missing.stderr)).toBe(`dipswitch: --scenarios ${join(dir, 'nope')}: no such folder`);
  });

  it('--fixtures FILE seeds from the user’s file; a file the contract refuses is named with its problems, exit 2', async () => {
    const dir = scratch('fixtures');
    const fixtures = JSON.parse(readFileSync(join(projectRoot, 'fixtures', 'default.json'), 'utf8')) as {
      accounts: { name: string }[];
      numbers: { data: Record<string, unknown> }[];
    };
    fixtures.accounts[0]!.name = 'Acme Test';
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(fixtures));
    const cli = await startCli(['--memory', '--port', '0', '--fixtures', good]);
    try {
      await eventually(() => cli.out().includes('Partner'));
      expect(cli.out()).toContain('Acme Test (0a0a0a0a-0000-4000-8000-000000000001): demo-admin-key');
      // a reset reads the file again: an edit is taken; a broken file is a 422 and the state stays
      const accounts = async () =>
        ((await (await fetch(`${cli.base}/__sim/accounts`)).json()) as { accounts: { name: string }[] }).accounts;
      fixtures.accounts[0]!.name = 'Acme Edited';
      writeFileSync(good, JSON.stringify(fixtures));
      expect((await fetch(`${cli.base}/__sim/reset`, { method: 'POST' })).status).toBe(200);
      expect((await accounts()).map((a) => a.name)).toContain('Acme Edited');
      writeFileSync(good, '{ not json');
      const broken = await fetch(`${cli.base}/__sim/reset`, { method: 'POST' });
      expect(broken.status).toBe(422);
      expect((await accounts()).map((a) => a.name)).toContain('Acme Edited');
      fixtures.accounts[0]!.name = 'Acme Test';
    } finally {
      await cli.stop();
    }
    fixtures.numbers[2]!.data.sms_enabled = 'yes';
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(fixtures));
    const refused = runCli(['--memory', '--port', '0', '--fixtures', bad]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `dipswitch: --fixtures ${bad} is not a valid fixture file:`,
      '  /numbers/2/data/sms_enabled must be boolean (number)',
    ]);
  });
});
