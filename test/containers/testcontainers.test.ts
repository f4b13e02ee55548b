/**
 * The Testcontainers module as a Node team uses it: the packed package installed in a new project,
 * its `dipswitch/testcontainers` driving podman's Docker-compatible API (`podman system service`),
 * in vitest. Ryuk's image cannot be pulled here, so the test stops its containers itself.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';
import { CONTAINERS_CONF, IMAGE, skipped } from '../support/containers.js';
import { installedClient } from '../support/packed.js';

/** A client team's test file: a container, its typed client, a sandbox, a fault, a verify. */
const CLIENT_TEST = `import { afterAll, beforeAll, expect, it } from 'vitest';
import { GenericContainer } from 'testcontainers';
import { DipswitchContainer, type StartedDipswitchContainer } from 'dipswitch/testcontainers';

let sim: StartedDipswitchContainer;
const logged: string[] = [];
beforeAll(async () => {
  // the image from DIPSWITCH_IMAGE, as every client of dipswitch reads it
  const container = new DipswitchContainer()
    .withAdminToken('tc-token')
    .withLabels({ team: 'checkout' })
    .withClock('frozen')
    .withStartTime('2026-03-01T12:00:00Z')
    .withLogConsumer((stream) => stream.on('data', (line) => logged.push(String(line))))
    .withSeed(7)
    .withScenarios(process.env.SCENARIOS_DIR!);
  expect(container).toBeInstanceOf(GenericContainer);
  sim = await container.start();
}, 120_000);
afterAll(() => sim?.stop());

it('a sandbox of the container meets a fault, and the verify sees both calls', async () => {
  expect(sim.adminToken).toBe('tc-token');
  expect(sim.keys.admin).toBe('demo-admin-key');
  expect(sim.getLabels().team).toBe('checkout');
  expect(sim.url).toBe(\`http://\${sim.getHost()}:\${sim.getMappedPort(4010)}\`);
  expect((await sim.client().clock.get()).now).toBe('2026-03-01T12:00:00.000Z');
  const box = await sim.sandbox('tc');
  await box.faults.add({ match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 1 });
  const numbers = async () =>
    (await fetch(\`\${sim.url}/api/v1/numbers\`, { headers: { authorization: \`Bearer \${box.keys.admin}\` } })).status;
  expect([await numbers(), await numbers()]).toEqual([503, 200]);
  await box.requests.verify({ match: { operation_id: 'listNumbers' }, count: { exactly: 2 } });
  expect(sim.smppPort).toBeGreaterThan(0);
  expect(logged.join('')).toMatch(/serving/);
});

it('serves the scenarios copied in with withScenarios', async () => {
  const admin = { 'x-sim-admin-token': sim.adminToken };
  const catalog = await (await fetch(\`\${sim.url}/__sim/scenarios\`, { headers: admin })).json();
  expect(catalog.scenarios).toContain('hello-tc');
  const ran = await (await fetch(\`\${sim.url}/__sim/scenarios/hello-tc\`, { method: 'POST', headers: admin })).json();
  expect(ran).toMatchObject({ name: 'hello-tc', passed: true });
});
`;

/** A scenario of the client team's, copied into the container by withScenarios. */
const SCENARIO = `import { scenario } from 'dipswitch';

export default scenario('hello-tc', 'A scenario copied into the container', async (s) => {
  const listed = await s.api('GET', '/api/v1/numbers');
  s.expect(listed.status === 200, 'the numbers are listed');
});
`;

describe.skipIf(!!skipped())('the Testcontainers module', () => {
  let service: ChildProcess | undefined;
  let socket = '';
  let client = '';

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-tc-'));
    socket = join(dir, 'podman.sock');
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
      stdio: 'ignore',
      env: { ...process.env, CONTAINERS_CONF },
    });
    client = installedClient(dir);
    for (const tool of ['vitest', 'testcontainers'])
      symlinkSync(join(projectRoot, 'node_modules', tool), join(client, 'node_modules', tool), 'dir');
    writeFileSync(join(client, 'container.test.ts'), CLIENT_TEST);
    mkdirSync(join(client, 'scenarios'));
    writeFileSync(join(client, 'scenarios', 'hello-tc.mjs'), SCENARIO);
    await eventually(
      () => spawnSync('curl', ['-sf', '--unix-socket', socket, 'http://d/_ping'], { encoding: 'utf8' }).stdout === 'OK',
      "podman's Docker API",
    );
  }, 300_000);

  afterAll(() => {
    service?.kill('SIGTERM');
  });

  it('a GenericContainer of its own: starts the image, answers its URL, SMPP port, keys, client, scenarios', () => {
    const run = spawnSync(process.execPath, [join(client, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: client,
      encoding: 'utf8',
      timeout: 300_000,
      env: {
        ...process.env,
        DOCKER_HOST: `unix://${socket}`,
        TESTCONTAINERS_RYUK_DISABLED: 'true',
        DIPSWITCH_IMAGE: IMAGE,
        SCENARIOS_DIR: join(client, 'scenarios'),
      },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('2 passed');
  });
});
