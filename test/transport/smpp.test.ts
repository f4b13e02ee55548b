// The SMPP server (issue 24), met as a client team's SMPP client meets it: the `smpp` package binds
// with a key made through /api/v1, receives inbound SMS as deliver_sm, submits, gets receipts; bad
// input on the wire gets SMPP's answers and breaks nothing else.
import { connect as tcp, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/harness/journal.js';
import { SMPP_STATUS } from '../../src/smpp/server.js';
import { listenSmpp } from '../../src/server.js';
import { DEMO, envelope, useServer, type TestServer } from '../support/helpers.js';
import { client, messageOf } from '../support/smpp_client.js';
import smpp from 'smpp';
import { eventually } from '../support/eventually.js';

const NUMBER = '+13125550100';

/** A key made through /api/v1, a switch of SMPP for it, the number bound to the switch. */
async function smppSwitch(s: TestServer, switchFields: Record<string, unknown> = {}) {
  const key = (await s.call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'smpp' }) })).body.data;
  const sw = (
    await s.call('POST', '/api/v1/switches', {
      body: envelope('switch', {
        name: 'smpp',
        sms_enabled: true,
        sms_protocol: 'SMPP',
        api_key_id: key.id,
        ...switchFields,
      }),
    })
  ).body.data;
  await s.call('PATCH', `/api/v1/numbers/${NUMBER}`, { body: envelope('did', { switch_id: sw.id }) });
  return { key, systemId: key.smpp_system_id as string, secret: key.smpp_secert as string };
}

const inbound = (s: TestServer, text: string, from = '+14155550123') =>
  s.call('POST', '/__sim/inbound/sms', { key: null, body: { to: NUMBER, from, text } });

describe('the SMPP server', () => {
  const server = useServer();
  const open = async () => (await listenSmpp(server().runtime, 0, '127.0.0.1')).port;

  it('a bind with the key made through /api/v1 receives an inbound SMS as deliver_sm; every PDU is journaled', async () => {
    const port = await open();
    const { systemId, secret } = await smppSwitch(server());
    const c = await client(port);
    expect(await c.bind('transceiver', systemId, secret)).toBe(0);
    const res = await inbound(server(), 'Hello over SMPP');
    expect(res.status).toBe(200);
    expect(res.body.trace.at(-1)).toMatchObject({ step: 'switch_smpp', detail: 'delivered, deliver_sm answered 0' });
    expect(c.received).toHaveLength(1);
    const pdu = c.received[0]!;
    expect(pdu).toMatchObject({
      source_addr: '14155550123',
      source_addr_ton: 1,
      destination_addr: '13125550100',
      data_coding: 0,
      esm_class: 0,
    });
    expect(messageOf(pdu)).toBe('Hello over SMPP');
    // the delivery log shows the deliver_sm's fields as they went
    const [logged] = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(JSON.parse(logged.body)).toEqual([
      expect.objectContaining({ source_addr: '14155550123', destination_addr: '13125550100', data_coding: 0 }),
    ]);
    // an SMPP exchange is journaled beside the traffic, not before the answer: a client reads it when it is there
    const journal = await eventually(async () => {
      const requests = (await server().call('GET', '/__sim/requests?api=smpp', { key: null })).body.requests;
      return requests.length >= 2 ? requests : undefined;
    }, 'the deliver_sm and the bind journaled');
    expect(journal.map((e: any) => e.method)).toEqual(['DELIVER_SM', 'BIND_TRANSCEIVER']);
    expect(journal[1]).toMatchObject({ path: `smpp://${systemId}`, status: 0 });
    expect(journal[1].request.body.password).toBe(REDACTED);
    c.close();
  });

  it('a wrong secret, an unknown system id and an inactive key are refused as an SMSC refuses them', async () => {
    const port = await open();
    const { key, systemId, secret } = await smppSwitch(server());
    const c = await client(port);
    expect(await c.bind('transceiver', systemId, 'wrong')).toBe(SMPP_STATUS.ESME_RINVPASWD);
    expect(await c.bind('receiver', 'nobody', secret)).toBe(SMPP_STATUS.ESME_RINVSYSID);
    await server().call('PATCH', `/api/v1/api_keys/${key.id}`, { body: envelope('api_key', { active: false }) });
    expect(await c.bind('transmitter', systemId, secret)).toBe(SMPP_STATUS.ESME_RBINDFAIL);
    c.close();
    // refused for the account's own credentials: in its journal; for an unknown system id: the server's alone
    const binds = async (key: string | null) =>
      (await server().call('GET', '/__sim/requests?api=smpp', { key })).body.requests.map(
        (e: { method: string; status: number; account_id: string | null }) => [e.method, e.status, e.account_id],
      );
    await eventually(async () => (await binds(null)).length === 3, 'the three binds journaled');
    // each is journaled once its account's clock is read: in any order
    const byMethod = (rows: unknown[][]) => rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byMethod(await binds(null))).toEqual([
      ['BIND_RECEIVER', SMPP_STATUS.ESME_RINVSYSID, null],
      ['BIND_TRANSCEIVER', SMPP_STATUS.ESME_RINVPASWD, DEMO],
      ['BIND_TRANSMITTER', SMPP_STATUS.ESME_RBINDFAIL, DEMO],
    ]);
    expect(byMethod(await binds('demo-admin-key')).map((b) => b[0])).toEqual(['BIND_TRANSCEIVER', 'BIND_TRANSMITTER']);
  });

  it('a message waits for a bind, then goes out when one binds; a transmitter does not receive', async () => {
    const port = await open();
    const { systemId, secret } = await smppSwitch(server());
    const res = await inbound(server(), 'while you were away');
    expect(res.body.trace.at(-1)).toMatchObject({ step: 'switch_smpp', detail: 'no bind of the key: waiting for one' });
    const waiting = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(waiting[0]).toMatchObject({ method: 'SMPP', outcome: 'waiting', attempts: [] });
    const tx = await client(port);
    expect(await tx.bind('transmitter', systemId, secret)).toBe(0);
    const rx = await client(port);
    expect(await rx.bind('receiver', systemId, secret)).toBe(0);
    await eventually(() => rx.received.length === 1, 'the waiting message arrives at the receiver');
    expect(messageOf(rx.received[0]!)).toBe('while you were away');
    expect(tx.received).toHaveLength(0);
    // the answer to the deliver_sm is recorded once it is back: the bind's sending is no step an advance waits for
    const delivered = await eventually(async () => {
      const [log] = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
      return log?.outcome === 'delivered' && log;
    }, 'the deliver_sm answered');
    expect(delivered).toMatchObject({ outcome: 'delivered' });
    tx.close();
    rx.close();
  });

  it('a long UCS-2 text goes as concatenated parts under a user data header', async () => {
    const port = await open();
    const { systemId, secret } = await smppSwitch(server());
    const c = await client(port);
    expect(await c.bind('transceiver', systemId, secret)).toBe(0);
    const text = 'Привет, мир! '.repeat(12); // 156 characters: UCS-2, three parts of at most 67
    await inbound(server(), text);
    expect(c.received).toHaveLength(3);
    for (const [i, pdu] of c.received.entries()) {
      expect(pdu.data_coding).toBe(8);
      expect(Number(pdu.esm_class) & 0x40).toBe(0x40);
      const udh = (pdu.short_message as { udh: Buffer[] }).udh[0]!;
      expect([...udh.subarray(0, 3)]).toEqual([0x00, 0x03, udh[2]]);
      expect([udh[3], udh[4]]).toEqual([3, i + 1]);
    }
    expect(c.received.map(messageOf).join('')).toBe(text);
    c.close();
  });

  it('a deliver_sm answered with an error is retried on the clock like an HTTP failure', async () => {
    const port = await open();
    const { systemId, secret } = await smppSwitch(server());
    const c = await client(port);
    expect(await c.bind('transceiver', systemId, secret)).toBe(0);
    c.answer.push(SMPP_STATUS.ESME_RSYSERR);
    await inbound(server(), 'try again');
    let log = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ outcome: 'retrying' });
    expect(log[0].attempts[0].error).toBe('deliver_sm answered command_status 0x00000008');
    expect(log[0].attempts[0].duration_ms).toBeGreaterThan(0);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    log = (await server().call('GET', '/__sim/deliveries?kind=sms', { key: null })).body.deliveries;
    expect(log[0]).toMatchObject({ outcome: 'delivered' });
    expect(c.received.map(messageOf)).toEqual(['try again', 'try again']);
    c.close();
  });

  it('submit_sm is answered with a message id and followed by a receipt on the clock; a throttle fault is seen', async () => {
    const port = await open();
    const { systemId, secret } = await smppSwitch(server());
    const c = await client(port);
    expect(await c.bind('transceiver', systemId, secret)).toBe(0);
    const fault = await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { smpp: 'submit_sm' }, effect: { smpp_status: SMPP_STATUS.ESME_RTHROTTLED }, times: 1 },
    });
    expect(fault.status).toBe(201);
    const submit = {
      source_addr_ton: 1,
      source_addr: '13125550100',
      dest_addr_ton: 1,
      destination_addr: '14155550123',
      registered_delivery: 1,
      short_message: 'Hi from the client',
    };
    expect((await c.call('submit_sm', submit)).command_status).toBe(SMPP_STATUS.ESME_RTHROTTLED);
    const accepted = await c.call('submit_sm', submit);
    expect(accepted.command_status).toBe(0);
    expect(String(accepted.message_id)).toMatch(/^[0-9A-Z]{26}$/);
    const foreign = await c.call('submit_sm', { ...submit, source_addr: '19995550100' });
    expect(foreign.command_status).toBe(SMPP_STATUS.ESME_RINVSRCADR);
    expect(c.received).toHaveLength(0);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT2S' } });
    await eventually(() => c.received.length === 1, 'the receipt arrives');
    const receipt = c.received[0]!;
    expect(receipt).toMatchObject({ esm_class: 4, source_addr: '14155550123', destination_addr: '13125550100' });
    expect(messageOf(receipt)).toMatch(
      new RegExp(`^id:${String(accepted.message_id)} sub:001 dlvrd:001 .* stat:DELIVRD`),
    );
    c.close();
  });

  it('faults refuse a bind, drop the connection on enquire_link, and delay a deliver_sm; binds of one key are bounded', async () => {
    const runtime = server().runtime;
    runtime.limits.smppBindsPerKey = 3;
    const port = await open();
    const { systemId, secret } = await smppSwitch(server());
    const fault = (body: unknown) => server().call('POST', '/__sim/faults', { key: null, body });
    await fault({
      match: { smpp: 'bind', system_id: systemId },
      effect: { smpp_status: SMPP_STATUS.ESME_RBINDFAIL },
      times: 1,
    });
    const refused = await client(port);
    expect(await refused.bind('transceiver', systemId, secret)).toBe(SMPP_STATUS.ESME_RBINDFAIL);
    expect(await refused.bind('transceiver', systemId, secret)).toBe(0);

    await fault({ match: { smpp: 'enquire_link' }, effect: { drop: true }, times: 1 });
    let closed = false;
    refused.session.on('close', () => (closed = true));
    refused.session.send(new smpp.PDU('enquire_link', {}));
    await eventually(() => closed, 'the connection is dropped');

    // a flood of binds of one key: past the bound, ESME_RBINDFAIL; the binds inside it work
    const flood = await Promise.all(Array.from({ length: 5 }, () => client(port)));
    const statuses = await Promise.all(flood.map((c) => c.bind('receiver', systemId, secret)));
    expect(statuses.filter((s) => s === 0)).toHaveLength(3);
    expect(statuses.filter((s) => s === SMPP_STATUS.ESME_RBINDFAIL)).toHaveLength(2);

    await fault({ match: { smpp: 'deliver_sm' }, effect: { delay_ms: 300 }, times: 1 });
    const started = performance.now();
    await inbound(server(), 'late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(flood.flatMap((c) => c.received).map(messageOf)).toEqual(['late']);
    for (const c of flood) c.close();
  });
});

/** A raw connection: what it receives, and whether it was closed. */
async function raw(port: number) {
  const socket: Socket = tcp(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let got = Buffer.alloc(0);
  let closed = false;
  socket.on('data', (d: Buffer) => (got = Buffer.concat([got, d])));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return { socket, got: () => got, closed: () => closed };
}

const header = (length: number, id: number, status: number, seq: number) => {
  const b = Buffer.alloc(16);
  b.writeUInt32BE(length, 0);
  b.writeUInt32BE(id, 4);
  b.writeUInt32BE(status, 8);
  b.writeUInt32BE(seq, 12);
  return b;
};

describe('the SMPP server on bad input', () => {
  const server = useServer();

  it('garbage, a 4 GB command_length, an unknown command, PDUs before a bind and a flood of idle connections break nothing else', async () => {
    const runtime = server().runtime;
    runtime.limits.smppUnbound = 20;
    runtime.limits.smppBindTimeoutMs = 300;
    const port = (await listenSmpp(runtime, 0, '127.0.0.1')).port;
    const { systemId, secret } = await smppSwitch(server());

    const huge = await raw(port);
    huge.socket.write(header(0xffffffff, 0x00000004, 0, 1));
    await eventually(() => huge.closed(), 'a 4 GB PDU closes the connection');
    expect(huge.got().readUInt32BE(4)).toBe(0x80000000); // generic_nack
    expect(huge.got().readUInt32BE(8)).toBe(SMPP_STATUS.ESME_RINVCMDLEN);

    const short = await raw(port);
    short.socket.write(Buffer.from([0, 0, 0, 8, 1, 2, 3, 4]));
    await eventually(() => short.closed(), 'a PDU shorter than its header closes the connection');

    const unknown = await raw(port);
    unknown.socket.write(header(16, 0x00000777, 0, 7));
    await eventually(() => unknown.got().length >= 16, 'an unknown command is answered');
    expect(unknown.got().readUInt32BE(4)).toBe(0x80000000);
    expect(unknown.got().readUInt32BE(8)).toBe(SMPP_STATUS.ESME_RINVCMDID);
    expect(unknown.got().readUInt32BE(12)).toBe(7);

    const early = await client(port);
    expect((await early.call('submit_sm', { destination_addr: '1', short_message: 'x' })).command_status).toBe(
      SMPP_STATUS.ESME_RINVBNDSTS,
    );
    expect((await early.call('enquire_link')).command_status).toBe(SMPP_STATUS.ESME_RINVBNDSTS);

    const idle = await Promise.all(Array.from({ length: 40 }, () => raw(port)));
    await eventually(() => idle.every((c) => c.closed()), 'idle connections past the bound and the bind timeout close');

    const good = await client(port);
    expect(await good.bind('transceiver', systemId, secret)).toBe(0);
    expect((await good.call('enquire_link')).command_status).toBe(0);
    await inbound(server(), 'still here');
    expect(good.received.map(messageOf)).toEqual(['still here']);
    expect((await good.call('unbind')).command_status).toBe(0);
    for (const c of [huge, short, unknown]) c.socket.destroy();
    early.close();
    good.close();
  });
});
