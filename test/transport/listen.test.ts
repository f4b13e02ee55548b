/**
 * Listeners (GET /__sim/listen, the Node package's `listen`): an account's deliveries reach a
 * receiver on this machine through a listener, signature intact; the outcome is the receiver's; a
 * listener away is an attempt that failed and is retried; another account's listener sees nothing;
 * a revoked key's listener is closed; the bounds answer 422.
 */
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract.js';
import { listen, type Forwarded, type Listening } from 'dipswitch';
import { localUrl } from '../../src/testing/listener.js';
import { LISTENERS_PER_ACCOUNT } from '../../src/engine/listeners.js';
import { envelope, startTestServer, useReceiver, useServer } from '../support/helpers.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { eventually } from '../support/eventually.js';
import { events } from '../support/sse.js';
import { listenedSwitch, signedAs } from '../support/listened.js';

const sim = new Ajv2020({ allErrors: true, strict: false });
sim.addSchema({ ...loadContract('sim').document, $id: 'sim' });
/** Checks a value against a schema of contract/sim.yaml. */
function expectSim(schema: string, value: unknown): void {
  const validate = sim.getSchema(`sim#/components/schemas/${schema}`)!;
  expect(validate(value), `${schema}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

describe('listeners: deliveries to a receiver on this machine', () => {
  const server = useServer();
  const receiver = useReceiver();
  const open: Listening[] = [];
  afterEach(() => {
    for (const l of open.splice(0)) l.close();
  });

  const start = (key = 'demo-admin-key', opts: { name?: string; all?: boolean } = {}) => {
    const forwarded: Forwarded[] = [];
    const listening = listen({
      url: server().base,
      key,
      forwardTo: receiver().url,
      name: opts.name ?? 'laptop',
      all: opts.all,
      reconnectMs: 50,
      onDelivery: (f) => forwarded.push(f),
    });
    open.push(listening);
    return { listening, forwarded };
  };

  const sms = (text: string, to = '+13125550100', key: string | null = null) =>
    server().call('POST', '/__sim/inbound/sms', { key, body: { to, from: '+14155550123', text } });
  const deliveries = async (key: string | null = null) =>
    (await server().call('GET', '/__sim/deliveries?kind=sms', { key })).body.deliveries as any[];

  async function route(target: string, key?: string, number = '+13125550100') {
    const sw = await server().call('POST', '/api/v1/switches', {
      key,
      body: envelope('switch', listenedSwitch(target)),
    });
    expect(sw.status, JSON.stringify(sw.body)).toBe(201);
    const routed = await server().call('PATCH', `/api/v1/numbers/${number}`, {
      key,
      body: envelope('did', { switch_id: sw.body.data.id }),
    });
    expect(routed.status).toBe(200);
  }

  it('a NAME.listen.invalid target reaches the receiver through the listener, signed as sent; the outcome is its answer', async () => {
    await route('https://laptop.listen.invalid/sms?via=listener');
    const { listening, forwarded } = start();
    const shape = await listening.ready;
    expectSim('listener', shape);
    expect(shape).toMatchObject({ name: 'laptop', all: false });

    const res = await sms('through the listener');
    expect(res.status).toBe(200);
    const got = receiver().received;
    expect(got).toHaveLength(1);
    expect(got[0]!.path).toBe('/sms');
    expect(got[0]!.query.get('via')).toBe('listener');
    expect(got[0]!.json().data.text).toBe('through the listener');
    expect(got[0]!.headers.authorization).toBe(signedAs(got[0]!.body));

    const [log] = await deliveries();
    expect(log).toMatchObject({ target: 'https://laptop.listen.invalid/sms?via=listener', outcome: 'delivered' });
    expect(log.attempts).toEqual([expect.objectContaining({ status: 200, error: null })]);
    await eventually(() => forwarded.length === 1, 'the forwarded delivery');
    expect(forwarded[0]).toMatchObject({
      kind: 'sms',
      status: 200,
      forwarded_to: `${receiver().url}/sms?via=listener`,
    });
  });

  it('a 2xx with a 2 MiB body delivers it once: the listener sends back its first 64 KB, and says it cut', async () => {
    await route('https://laptop.listen.invalid/sms');
    receiver().replies.push({ status: 200, contentType: 'text/plain', body: 'x'.repeat(2 * 1024 * 1024) });
    const { listening, forwarded } = start();
    await listening.ready;
    expect((await sms('a large answer')).status).toBe(200);
    const [log] = await deliveries();
    expect(log).toMatchObject({ outcome: 'delivered' });
    expect(log.attempts).toEqual([expect.objectContaining({ status: 200, error: null })]);
    await eventually(() => forwarded.length === 1, 'the forwarded delivery');
    expect(forwarded[0]).toMatchObject({ status: 200, answer_error: null, body_cut: true });
    expect(receiver().received).toHaveLength(1);
  });

  it("the receiver's refusal is the attempt's: failed and retried, then delivered", async () => {
    await route('https://laptop.listen.invalid');
    receiver().replies.push({ status: 503 });
    await start().listening.ready;
    await sms('first refused');
    let [log] = await deliveries();
    expect(log).toMatchObject({ outcome: 'retrying' });
    expect(log.attempts[0]).toMatchObject({ status: 503, error: 'listener laptop: answered 503' });
    await server().call('POST', '/__sim/clock/advance', { body: { by: 'PT1M' } });
    [log] = await deliveries();
    expect(log.outcome).toBe('delivered');
    expect(receiver().received.map((r) => r.path)).toEqual(['/', '/']);
  });

  it('a listener away is an attempt that failed: retried by the policy, it arrives once the listener is back', async () => {
    await route('https://laptop.listen.invalid/sms');
    await sms('while away');
    let [log] = await deliveries();
    expect(log.outcome).toBe('retrying');
    expect(log.attempts[0].error).toBe('no listener named laptop is connected');
    await start().listening.ready;
    await server().call('POST', '/__sim/clock/advance', { body: { by: 'PT1M' } });
    [log] = await deliveries();
    expect(log.outcome).toBe('delivered');
    expect(receiver().received.map((r) => r.json().data.text)).toEqual(['while away']);
  });

  it('with all, every HTTP delivery of the account goes to the listener, whatever its target; the raw events match the contract', async () => {
    await route('http://192.0.2.1:9/inbound');
    const raw = await fetch(`${server().base}/__sim/listen?name=laptop&all=true`, {
      headers: { authorization: 'Bearer demo-admin-key' },
    });
    expect(raw.status).toBe(200);
    const stream = events(raw);
    const next = stream.next;
    const listening = await next('listening');
    expectSim('listener', listening);
    expect(listening.all).toBe(true);
    const answered = sms('to anywhere');
    const delivery = await next('delivery');
    expectSim('listened_delivery', delivery);
    expect(delivery).toMatchObject({ kind: 'sms', target: 'http://192.0.2.1:9/inbound', method: 'POST' });
    expect(JSON.parse(Buffer.from(delivery.body_base64, 'base64').toString()).data.text).toBe('to anywhere');
    const answer = { id: delivery.id, status: 204, headers: {}, body: '' };
    const posted = await server().call('POST', '/__sim/listen/answers', { body: answer });
    expect(posted.status).toBe(202);
    expect((await answered).status).toBe(200);
    const [log] = await deliveries();
    expect(log).toMatchObject({ outcome: 'delivered', attempts: [expect.objectContaining({ status: 204 })] });
    await stream.close();
  });

  it('several listeners of one name each get every delivery; another name gets none', async () => {
    await route('https://laptop.listen.invalid/sms');
    const [one, two, other] = [start(), start(), start('demo-admin-key', { name: 'desktop' })];
    await Promise.all([one.listening.ready, two.listening.ready, other.listening.ready]);
    await sms('to both');
    await eventually(() => one.forwarded.length === 1 && two.forwarded.length === 1, 'both listeners');
    expect(other.forwarded).toEqual([]);
    expect(receiver().received.map((r) => r.json().data.text)).toEqual(['to both', 'to both']);
    expect((await deliveries())[0]).toMatchObject({ outcome: 'delivered', attempts: [expect.anything()] });
  });

  it("another account's listener sees none of it; a sandbox's listener gets its own", async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { name: 'other team' } })).body;
    const theirs = start(box.keys.admin, { all: true });
    await theirs.listening.ready;
    await route('https://laptop.listen.invalid');
    await sms('for demo only');
    expect(theirs.forwarded).toEqual([]);
    expect(receiver().received).toHaveLength(0);
    expect((await deliveries())[0].attempts[0].error).toBe('no listener named laptop is connected');

    await route('https://laptop.listen.invalid', box.keys.admin, box.numbers[0]);
    expect((await sms('for the sandbox', box.numbers[0], box.keys.admin)).status).toBe(200);
    await eventually(() => theirs.forwarded.length === 1, "the sandbox's delivery");
    expect(receiver().received.map((r) => r.json().data.text)).toEqual(['for the sandbox']);
  });

  it("a revoked key's listener is closed by the server", async () => {
    const made = await server().call('POST', '/api/v1/api_keys', {
      body: envelope('api_key', { name: 'listener' }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { listening } = start(made.body.data.key);
    await listening.ready;
    expect((await server().call('DELETE', `/api/v1/api_keys/${made.body.data.id}`)).status).toBe(200);
    expect(await listening.stopped).toMatch(/^closed by the server: the key was revoked/);
  });

  it('an HTTP route callback through a listener: a GET with its JSON body, the call routed by the local answer', async () => {
    const destination = { type: 'HTTP_ROUTE', destination: 'https://laptop.listen.invalid/route', priority: 1 };
    const made = await server().call('POST', '/api/v1/numbers/+13125550106/destinations', {
      body: envelope('number_destination', destination),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await start().listening.ready;
    receiver().replies.push({ contentType: 'text/plain', body: 'VOIP:1001@pbx.example.com' });
    const res = await server().call('POST', '/__sim/inbound/call', {
      key: null,
      body: { to: '+13125550106', from: '+14155550123' },
    });
    const got = receiver().received[0]!;
    expect(got).toMatchObject({ method: 'GET', path: '/route' });
    expect(got.json()).toMatchObject({ to: '+13125550106', direction: 'INCOMING' });
    expect(res.body.decision).toMatchObject({ type: 'VOIP', data: '1001@pbx.example.com', source: 'destination' });
  });

  it('an account removed closes its listeners', async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { name: 'gone soon' } })).body;
    const { listening } = start(box.keys.admin);
    await listening.ready;
    expect((await server().call('DELETE', `/__sim/accounts/${box.id}`, { key: null })).status).toBeLessThan(300);
    expect(await listening.stopped).toMatch(/^closed by the server: /);
  });

  it("GET /__sim/listeners shows a key's own listeners, and every account's without one", async () => {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { name: 'other team' } })).body;
    await Promise.all([start().listening.ready, start(box.keys.admin, { all: true }).listening.ready]);
    const own = await server().call('GET', '/__sim/listeners');
    expect(own.body).toEqual({
      count: 1,
      listeners: [{ id: expect.any(String), name: 'laptop', all: false, account_id: expect.any(String), here: true }],
    });
    const all = await server().call('GET', '/__sim/listeners', { key: null });
    expect(all.body.listeners.map((l: any) => l.account_id)).toContain(box.id);
    expect(all.body.count).toBe(2);
  });

  it(`an account has at most ${LISTENERS_PER_ACCOUNT} listeners; one more is 422 limit_reached`, async () => {
    for (let i = 0; i < LISTENERS_PER_ACCOUNT; i++) await start('demo-admin-key', { name: `l${i}` }).listening.ready;
    const refused = await server().call('GET', '/__sim/listen?name=more');
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('limit_reached');
  });

  it("keeps the target's path and query under the local URL", () => {
    expect(localUrl('http://127.0.0.1:3000', 'https://laptop.listen.invalid')).toBe('http://127.0.0.1:3000/');
    expect(localUrl('http://127.0.0.1:3000/hooks', 'https://laptop.listen.invalid')).toBe(
      'http://127.0.0.1:3000/hooks',
    );
    expect(localUrl('http://127.0.0.1:3000/hooks/', 'https://laptop.listen.invalid/sms?x=1')).toBe(
      'http://127.0.0.1:3000/hooks/sms?x=1',
    );
    expect(localUrl('http://127.0.0.1:3000', 'https://example.com/cdr')).toBe('http://127.0.0.1:3000/cdr');
  });
});

/** A TCP proxy to `target` that cuts a connection silent for `idleMs`, as a load balancer's idle timeout does. */
async function idleCuttingProxy(target: string, idleMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const { port, hostname } = new URL(target);
  const sockets = new Set<Socket>();
  const proxy = createNetServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setTimeout(idleMs, () => (client.destroy(), upstream.destroy()));
      s.on('error', () => (client.destroy(), upstream.destroy()));
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => proxy.close(() => r()));
    },
  };
}

describe('a listener behind a proxy that cuts connections idle for 300 ms', () => {
  /** How many times the listener's stream was cut in 1 s of quiet, and whether a delivery after it arrived. */
  async function quietSecond(keepaliveMs: number): Promise<{ cuts: number; received: number }> {
    const server = await startTestServer({ limits: { streamKeepaliveMs: keepaliveMs } });
    const receiver = await startReceiver();
    const proxy = await idleCuttingProxy(server.base, 300);
    let cuts = 0;
    const listening = listen({
      url: proxy.url,
      key: 'demo-admin-key',
      forwardTo: receiver.url,
      name: 'laptop',
      reconnectMs: 50,
      onCut: () => cuts++,
    });
    try {
      await listening.ready;
      const sw = await server.call('POST', '/api/v1/switches', {
        body: envelope('switch', {
          name: 'behind a proxy',
          sms_enabled: true,
          sms_protocol: 'HTTP',
          sms_data: 'https://laptop.listen.invalid/sms',
        }),
      });
      await server.call('PATCH', '/api/v1/numbers/+13125550100', {
        body: envelope('did', { switch_id: sw.body.data.id }),
      });
      await new Promise((r) => setTimeout(r, 1_000));
      const body = { to: '+13125550100', from: '+14155550123', text: 'after the quiet' };
      await server.call('POST', '/__sim/inbound/sms', { key: null, body });
      return { cuts, received: receiver.received.length };
    } finally {
      listening.close();
      await proxy.close();
      await receiver.close();
      await server.close();
    }
  }

  it('stays connected through the keepalive comments, and the delivery after the quiet arrives', async () => {
    expect(await quietSecond(100)).toEqual({ cuts: 0, received: 1 });
  });

  it('without them (a keepalive longer than the proxy waits) the stream is cut, and connected again', async () => {
    expect((await quietSecond(60_000)).cuts).toBeGreaterThan(0);
  });
});
