/**
 * The Testcontainers module as a Node team uses it: the packed package installed in a new project,
 * its `dipswitch/testcontainers` driving podman's Docker-compatible API (`podman system service`),
 * in vitest. Ryuk's image cannot be pulled here, so the test stops its containers itself.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';
import { CONTAINERS_CONF, IMAGE, skipped } from '../support/containers.js';
import { installedClient } from '../support/packed.js';

/** A client team's test file: a container, its typed client, a sandbox, a fault, a verify. */
const CLIENT_TEST = `import { afterAll, beforeAll, expect, it } from 'vitest';
import { DipswitchContainer, type StartedDipswitch } from 'dipswitch/testcontainers';

let sim: StartedDipswitch;
beforeAll(async () => {
  sim = await new DipswitchContainer(process.env.DIPSWITCH_IMAGE)
    .withAdminToken('tc-token')
    .withClock('frozen')
    .withStartTime('2026-03-01T12:00:00Z')
    .withSeed(7)
    .start();
}, 120_000);
afterAll(() => sim?.stop());

it('a sandbox of the container meets a fault, and the verify sees both calls', async () => {
  expect(sim.adminToken).toBe('tc-token');
  expect(sim.keys.admin).toBe('demo-admin-key');
  expect((await sim.client().clock.now())).toBe('2026-03-01T12:00:00.000Z');
  const box = await sim.sandbox('tc');
  await box.faults.add({ match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 1 });
  const numbers = async () =>
    (await fetch(\`\${sim.url}/api/v1/numbers\`, { headers: { authorization: \`Bearer \${box.keys.admin}\` } })).status;
  expect([await numbers(), await numbers()]).toEqual([503, 200]);
  await box.requests.verify({ match: { operation_id: 'listNumbers' }, count: { exactly: 2 } });
  expect(sim.smppPort).toBeGreaterThan(0);
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
    await eventually(
      () => spawnSync('curl', ['-sf', '--unix-socket', socket, 'http://d/_ping'], { encoding: 'utf8' }).stdout === 'OK',
      "podman's Docker API",
    );
  }, 300_000);

  afterAll(() => {
    service?.kill('SIGTERM');
  });

  it('starts the image, answers its URL, SMPP port, keys and typed client, and stops it', () => {
    const run = spawnSync(process.execPath, [join(client, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: client,
      encoding: 'utf8',
      timeout: 300_000,
      env: {
        ...process.env,
        DOCKER_HOST: `unix://${socket}`,
        TESTCONTAINERS_RYUK_DISABLED: 'true',
        DIPSWITCH_IMAGE: IMAGE,
      },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('1 passed');
  });
});
