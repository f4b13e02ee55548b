// The package as a client team gets it: packed, installed from the tarball into a new project
// (production dependencies only, offline, from the npm cache), then used as a library and a command.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { startCli } from '../support/cli_process.js';
import { lockfileFor, npm, pack } from '../support/packed.js';

describe('the package', () => {
  it('packs dist, the contracts, fixtures and scenarios only; installs offline without engine warnings; works as a library and a command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-pack-'));
    const tarball = pack(dir);
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    const tops = new Set(
      listing.map((f) =>
        f
          .split('/')
          .slice(1, f.startsWith('package/dist/') ? 3 : 2)
          .join('/'),
      ),
    );
    expect([...tops].sort()).toEqual(
      [
        'README.md',
        'contract',
        'dist/contract',
        'dist/scenarios',
        'dist/src',
        'docs',
        'fixtures',
        'package.json',
        'scenarios',
      ].sort(),
    );
    expect(listing).toContain('package/dist/src/cli/main.js');
    expect(listing).toContain('package/dist/src/index.d.ts');

    const client = join(dir, 'client');
    mkdirSync(client);
    writeFileSync(
      join(client, 'package.json'),
      JSON.stringify({ name: 'client', private: true, type: 'module', dependencies: { dipswitch: `file:${tarball}` } }),
    );
    writeFileSync(join(client, 'package-lock.json'), JSON.stringify(lockfileFor(tarball)));
    // dependencies' install scripts are not run: they build optional native add-ons (ssh2's crypto binding,
    // cpu-features) that dipswitch works without, and cost half this test's time; the package itself runs
    // nothing at install, so nothing of ours goes untried
    const packed = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(packed.scripts?.[hook]).toBeUndefined();
    const install = npm(['ci', '--offline', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], client);
    expect(install.status, install.stderr).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toContain('EBADENGINE');
    expect(readdirSync(join(client, 'node_modules'))).not.toContain('typescript');

    // the command
    const help = spawnSync(join(client, 'node_modules', '.bin', 'dipswitch'), ['--help'], {
      cwd: client,
      encoding: 'utf8',
    });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: dipswitch');
    const server = await startCli(['--memory', '--port', '0'], {
      command: [join(client, 'node_modules', 'dipswitch', 'dist', 'src', 'cli', 'main.js')],
    });
    try {
      const carts = await fetch(`${server.base}/api/v1/carts`, { headers: { authorization: 'Bearer demo-admin-key' } });
      expect(carts.status).toBe(200);
      const scenario = await fetch(`${server.base}/__sim/scenarios/cart-to-order`, { method: 'POST' });
      expect(((await scenario.json()) as { passed: boolean }).passed).toBe(true);
    } finally {
      await server.stop();
    }

    // a CommonJS project requires it (Node 20.19+, 22.12+ and 24 load an ES module through require)
    writeFileSync(
      join(client, 'require.cjs'),
      "const { startDipswitch } = require('dipswitch');\n" +
        'startDipswitch().then(async (sim) => {\n' +
        '  const r = await fetch(`${sim.url}/api/v1/carts`, { headers: { authorization: `Bearer ${sim.keys.admin}` } });\n' +
        '  console.log(`carts ${r.status}`);\n' +
        '  await sim.close();\n' +
        '});\n',
    );
    const required = spawnSync(process.execPath, ['require.cjs'], { cwd: client, encoding: 'utf8', timeout: 60_000 });
    expect(required.status, required.stderr).toBe(0);
    expect(required.stdout).toContain('carts 200');

    // the library example (docs/library.md), run by vitest in the new project, against the installed package
    for (const tool of ['vitest', 'tsx'])
      symlinkSync(join(projectRoot, 'node_modules', tool), join(client, 'node_modules', tool), 'dir');
    cpSync(join(projectRoot, 'test', 'project', 'library_example.test.ts'), join(client, 'example.test.ts'));
    // the client team's test written with the typed control client, in vitest and in node:test
    cpSync(join(projectRoot, 'test', 'project', 'client_example.test.ts'), join(client, 'client.test.ts'));
    cpSync(join(projectRoot, 'test', 'support', 'client_example.node.mjs'), join(client, 'client.node.mjs'));
    const example = spawnSync(process.execPath, [join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: client,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(example.status, `${example.stdout}${example.stderr}`).toBe(0);
    expect(example.stdout).toContain('3 passed');
    const nodeTest = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'client.node.mjs'], {
      cwd: client,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(nodeTest.status, `${nodeTest.stdout}${nodeTest.stderr}`).toBe(0);
    expect(nodeTest.stdout).toMatch(/# pass 2/);

    // a user's TypeScript scenario, loaded through tsx by the built command
    const scenarios = join(client, 'scenarios');
    mkdirSync(scenarios);
    writeFileSync(
      join(scenarios, 'typed.ts'),
      "import { scenario, type ScenarioContext } from 'dipswitch';\n\nexport default scenario('typed', 'a typed scenario', async (s: ScenarioContext): Promise<void> => {\n  s.expect((await s.api('GET', '/api/v1/carts')).status === 200, 'listed');\n});\n",
    );
    // the installed command runs one scenario of a folder, from `cwd`
    const scenarioRun = (name: string, folder: string, cwd: string) =>
      spawnSync(join(client, 'node_modules', '.bin', 'dipswitch'), ['scenario', name, '--scenarios', folder], {
        cwd,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const run = scenarioRun('typed', scenarios, client);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('listed');

    // a scenario folder anywhere (no dipswitch installed beside it): the installed command resolves 'dipswitch' for it
    const somewhere = mkdtempSync(join(tmpdir(), 'dipswitch-somewhere-'));
    writeFileSync(
      join(somewhere, 'anywhere.mjs'),
      "import { scenario } from 'dipswitch';\n\nexport default scenario('from-anywhere', 'a scenario outside any project', async (s) => {\n  s.expect((await s.api('GET', '/api/v1/carts')).status === 200, 'listed from anywhere');\n});\n",
    );
    const anywhere = scenarioRun('from-anywhere', somewhere, somewhere);
    expect(anywhere.status, `${anywhere.stdout}${anywhere.stderr}`).toBe(0);
    expect(anywhere.stdout).toContain('listed from anywhere');

    // a plain install leaves the optional features out (docs/running.md): none of their packages is there, and
    // each, used, says in one line what to add, at the range this release declares
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    // (prom-client brings @opentelemetry/api itself: the SDK and its exporters are what traces add)
    for (const name of ['@modelcontextprotocol/sdk', '@opentelemetry/sdk-trace-node', '@stoplight/prism-http', 'ssh2'])
      expect(existsSync(join(client, 'node_modules', name)), name).toBe(false);
    const bin = join(client, 'node_modules', '.bin', 'dipswitch');
    const said = (args: string[], env: Record<string, string> = {}) => {
      const r = spawnSync(bin, args, {
        cwd: client,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, ...env },
      });
      return { status: r.status, lines: r.stderr.trim().split('\n'), stdout: r.stdout };
    };
    const mcp = said(['mcp', '--url', 'http://127.0.0.1:9']);
    expect(mcp).toMatchObject({
      status: 2,
      lines: [expect.stringMatching(/^dipswitch: The MCP server .* needs packages/)],
    });
    expect(mcp.lines[0]).toContain(
      `npm i -D '@modelcontextprotocol/sdk@${manifest.peerDependencies['@modelcontextprotocol/sdk']}'`,
    );
    const traced = said(['--memory', '--port', '0', '--no-smpp'], { OTEL_TRACES_EXPORTER: 'console' });
    expect(traced).toMatchObject({ status: 2, lines: [expect.stringContaining("'@opentelemetry/sdk-trace-node@")] });
    const proxied = said(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0']);
    expect(proxied).toMatchObject({ status: 2, lines: [expect.stringContaining("npm i -D '@stoplight/prism-http@")] });
    expect(said(['features']).stdout.match(/not installed/g)).toHaveLength(4);
    // the server answers its MCP endpoint 501 with the same line; once the package is there, a server started
    // again serves it
    const startLean = () =>
      startCli(['--memory', '--port', '0'], {
        command: [join(client, 'node_modules', 'dipswitch', 'dist', 'src', 'cli', 'main.js')],
      });
    const listTools = (base: string) =>
      fetch(`${base}/__sim/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const lean = await startLean();
    try {
      const refused = await listTools(lean.base);
      expect(refused.status).toBe(501);
      expect(((await refused.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toContain(
        "npm i -D '@modelcontextprotocol/sdk@",
      );
    } finally {
      await lean.stop();
    }
    symlinkSync(
      join(projectRoot, 'node_modules', '@modelcontextprotocol'),
      join(client, 'node_modules', '@modelcontextprotocol'),
      'dir',
    );
    expect(said(['features']).stdout).toMatch(/^mcp .*: installed$/m);
    const full = await startLean();
    try {
      expect((await listTools(full.base)).status).toBe(200);
    } finally {
      await full.stop();
    }
  }, 400_000);
});

describe('the Testcontainers peer range', () => {
  it('admits only the testcontainers versions that run on every Node dipswitch supports', () => {
    // npm's own semver (a dependency of the tools here), read as plain JavaScript
    const semver = createRequire(import.meta.url)('semver') as {
      satisfies(version: string, range: string): boolean;
      minVersion(range: string): { version: string } | null;
    };
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const range = pkg.peerDependencies.testcontainers!;
    // 12.x declares node >= 22.22 and fails at import on Node 20 (undici's bind); 11.x is the one the suite runs
    expect(semver.satisfies('12.0.0', range)).toBe(false);
    expect(semver.satisfies('12.2.0', range)).toBe(false);
    expect(semver.satisfies(semver.minVersion(pkg.devDependencies.testcontainers!)!.version, range)).toBe(true);
  });
});
