/**
 * The hosted stack of docs/containers.md (containers/compose.yaml) with podman-compose: PostgreSQL and
 * two dipswitch instances over it, guarded by the admin token. A call made on one instance is seen on
 * the other, and what the instances share holds across them: a fault rule with `times: 1`, made on one,
 * fires once whichever instance the calls reach. A sandbox's delivery, made by one instance, reaches a
 * receiver on this machine through `dipswitch listen` connected to the other (docs/hosted.md).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { connectDipswitch } from '../../src/testing/control_client.js';
import { eventually } from '../support/eventually.js';
import { CONTAINERS_CONF, IMAGE, POSTGRES_IMAGE, podman, podmanOk, skipped } from '../support/containers.js';
import { freePort, startCli } from '../support/cli_process.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { listenedSwitch, signedAs } from '../support/listened.js';

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
    expect((await box.faults.list()).faults.find((r) => r.id === rule.id)?.fired).toBe(1);
  });

  it("a sandbox's delivery reaches a receiver on this machine through dipswitch listen, its signature intact", async () => {
    const box = await connectDipswitch(a, { adminToken: TOKEN }).sandbox('laptop');
    const headers = { authorization: `Bearer ${box.keys.admin}`, 'content-type': 'application/json' };
    const post = async (base: string, method: string, path: string, body: unknown) =>
      (await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) })).json() as Promise<any>;
    const sw = await post(a, 'POST', '/api/v1/switches', {
      type: 'switch',
      data: listenedSwitch(),
    });
    await post(a, 'PATCH', `/api/v1/numbers/${box.numbers[0]}`, { type: 'did', data: { switch_id: sw.data.id } });
    const receiver = await startReceiver();
    const args = ['listen', '--url', a, '--key', box.keys.admin, '--forward-to', receiver.url, '--name', 'laptop'];
    const listener = await startCli(args, { ready: /listening as (\S+)/ });
    try {
      // the other instance hears of the listener over the peers channel
      const other = connectDipswitch(b, { key: box.keys.admin });
      await eventually(
        async () => (await other.deliveries.listeners()).listeners.length === 1,
        'the other instance to know it',
      );
      const sms = await post(b, 'POST', '/__sim/inbound/sms', { to: box.numbers[0], from: '+14155550123', text: 'hi' });
      expect(sms.message.text).toBe('hi');
      await eventually(() => receiver.received.length === 1, 'the delivery at the receiver');
      const got = receiver.received[0]!;
      expect(got.path).toBe('/sms');
      expect(got.headers.authorization).toBe(signedAs(got.body));
      await eventually(() => / 200 /.test(listener.out()), 'the listener to print it');
    } finally {
      await listener.stop();
      await receiver.close();
    }
  });

  // last: it takes the database away from both instances
  it("PostgreSQL stopped: each instance's health check (readiness) fails while it still answers, and passes once it is back", async () => {
    const container = (service: string) =>
      podmanOk([
        'ps',
        '--filter',
        `label=io.podman.compose.project=${project}`,
        '--filter',
        `label=com.docker.compose.service=${service}`,
        '--format',
        '{{.Names}}',
      ]);
    const [postgres, instance] = [container('postgres'), container('dipswitch-a')];
    const check = () => podman(['healthcheck', 'run', instance]).status;
    const state = () => podmanOk(['inspect', '--format', '{{.State.Running}} {{.State.StartedAt}}', instance]);
    const before = state();
    expect(check(), 'healthy while the database answers').toBe(0);
    // a keep-alive connection the server closed meanwhile may be met first (podman's port forwarder keeps the
    // client's side open until it is written to): asked again then
    const answer = async (path: string, status: number) =>
      eventually(
        async () => (await fetch(`${a}${path}`, { headers: demo }).catch(() => null))?.status === status,
        `${path} ${status}`,
      );
    podmanOk(['stop', '--time', '2', postgres]);
    try {
      await eventually(() => check() !== 0, 'the health check to fail', 30_000);
      await answer('/__sim/health', 200);
      await answer('/api/v1/carts', 503);
      const refused = await fetch(`${a}/api/v1/carts`, { headers: demo });
      expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('storage_unavailable');
    } finally {
      podmanOk(['start', postgres]);
    }
    await eventually(() => check() === 0, 'the health check to pass again', 60_000);
    await answer('/api/v1/carts', 200);
    expect(state(), 'the same process all along').toBe(before);
  }, 180_000);
});
