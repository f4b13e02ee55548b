/**
 * The hosted stack of docs/containers.md (containers/compose.yaml) with podman-compose: PostgreSQL and
 * two dipswitch instances over it, guarded by the admin token. A call made on one instance is seen on
 * the other, and what the instances share holds across them: a fault rule with `times: 1`, made on one,
 * fires once whichever instance the calls reach.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { connectDipswitch } from '../../src/testing/control_client.js';
import { eventually } from '../support/eventually.js';
import { CONTAINERS_CONF, IMAGE, POSTGRES_IMAGE, skipped } from '../support/containers.js';
import { freePort } from '../support/cli_process.js';

const TOKEN = 'compose-token';
const demo = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };

describe.skipIf(!!skipped())('the compose stack', () => {
  const project = `dipswitch-test-${process.pid}`;
  let env: Record<string, string> = {};
  const compose = (args: string[]) =>
    spawnSync('podman-compose', ['-f', join(projectRoot, 'containers', 'compose.yaml'), '-p', project, ...args], {
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, ...env },
    });
  let a = '';
  let b = '';

  beforeAll(async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    env = {
      CONTAINERS_CONF,
      SIM_ADMIN_TOKEN: TOKEN,
      POSTGRES_PASSWORD: 'compose-password',
      POSTGRES_IMAGE,
      DIPSWITCH_IMAGE: IMAGE,
      PORT_A: String(portA),
      PORT_B: String(portB),
    };
    const up = compose(['up', '-d']);
    expect(up.status, up.stderr).toBe(0);
    a = `http://127.0.0.1:${portA}`;
    b = `http://127.0.0.1:${portB}`;
    for (const base of [a, b])
      await eventually(
        async () => (await fetch(`${base}/__sim/health`).catch(() => null))?.ok,
        `${base} healthy`,
        120_000,
      );
  }, 400_000);

  afterAll(() => {
    compose(['down', '-v']);
  });

  it('a call made on one instance is seen on the other; the admin token guards both', async () => {
    expect((await fetch(`${a}/__sim/accounts`)).status).toBe(403);
    const made = await fetch(`${a}/api/v1/carts`, {
      method: 'POST',
      headers: demo,
      body: JSON.stringify({ type: 'cart', data: { name: 'made on a' } }),
    });
    expect(made.status).toBe(201);
    const { data } = (await made.json()) as { data: { id: string } };
    const seen = await fetch(`${b}/api/v1/carts/${data.id}`, { headers: demo });
    expect(seen.status).toBe(200);
    const journal = await connectDipswitch(b, { adminToken: TOKEN }).requests.list({ operation_id: 'createCart' });
    expect(journal.count).toBe(1);
  });

  it('a rule with times: 1 made on one instance fires once across both', async () => {
    const box = await connectDipswitch(a, { adminToken: TOKEN }).sandbox('shared');
    const rule = await box.faults.add({ match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 1 });
    const statuses = [];
    for (const base of [b, a, b])
      statuses.push(
        (await fetch(`${base}/api/v1/numbers`, { headers: { authorization: `Bearer ${box.keys.admin}` } })).status,
      );
    expect(statuses).toEqual([503, 200, 200]);
    expect(await rule.fired()).toBe(1);
  });
});
