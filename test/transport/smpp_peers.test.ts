/**
 * SMPP as real ESMEs send it: sources with the `smpp` client's default TON/NPI (0/0) and Kannel's
 * (2/1) are the account's own numbers; receipts carry no NUL, their own submit and done dates, an
 * ENROUTE notification when asked; refused responses carry their empty fields; message ids in the
 * form an ESME is configured for; an idle bind is asked enquire_link and closed when it does not answer.
 */
import { connect } from 'node:net';
import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { SMPP_STATUS } from '../../src/smpp/server.js';
import { numberOfAddress } from '../../src/domain/smpp_addresses.js';
import { listenSmpp } from '../../src/server.js';
import { envelope, startTestServer, useServer, type TestServer } from '../support/helpers.js';
import { client, messageOf } from '../support/smpp_client.js';
import { eventually } from '../support/eventually.js';

async function smppKey(s: TestServer) {
  const key = (await s.call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'esme' }) })).body.data;
  return { systemId: key.smpp_system_id as string, secret: key.smpp_secert as string };
}

describe('SMPP addresses as an SMSC reads them', () => {
  it('TON 0, 1 and 2 with NPI 1 (or 0) are the same NANP number; short codes and alphanumerics as they are', () => {
    for (const [addr, ton, read] of [
      ['13125550100', 1, '+13125550100'],
      ['+13125550100', 0, '+13125550100'],
      ['13125550100', 2, '+13125550100'],
      ['3125550100', 2, '+13125550100'],
      ['3125550100', 0, '+13125550100'],
      ['13125550100', 0, '+13125550100'],
      ['44123', 3, '44123'],
      ['447700900123', 1, '+447700900123'],
      ['ACME', 5, 'ACME'],
    ] as const)
      expect(numberOfAddress(addr, ton), `${addr} TON ${ton}`).toBe(read);
  });
});

describe('SMPP as real peers see it', () => {
  const server = useServer();
  const bound = async () => {
    const port = (await listenSmpp(server().runtime, 0, '127.0.0.1')).port;
    const { systemId, secret } = await smppKey(server());
    const c = await client(port);
    expect(await c.bind('transceiver', systemId, secret)).toBe(0);
    return { c, port, systemId, secret };
  };

  it("the account's number as the smpp client's defaults (TON 0, NPI 0) and Kannel's sendsms (TON 2, NPI 1) send it", async () => {
    const { c } = await bound();
    for (const [source_addr_ton, source_addr_npi, source_addr] of [
      [0, 0, '13125550100'],
      [0, 1, '3125550100'],
      [2, 1, '13125550100'],
      [2, 1, '3125550100'],
      [1, 1, '13125550100'],
    ] as const) {
      const answer = await c.call('submit_sm', {
        source_addr_ton,
        source_addr_npi,
        source_addr,
        destination_addr: '4155550123',
        short_message: 'hi',
      });
      expect(answer.command_status, `${source_addr} TON ${source_addr_ton} NPI ${source_addr_npi}`).toBe(0);
    }
    c.close();
  });

  it('a receipt for a non-GSM text has no NUL, its submit date the submit and its done date the receipt', async () => {
    const { c } = await bound();
    // 12:00:59: the receipt, 2 s on, is in the next minute
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT59S' } });
    const accepted = await c.call('submit_sm', {
      source_addr: '13125550100',
      destination_addr: '14155550123',
      registered_delivery: 0x11,
      short_message: 'Grüße 你好',
      data_coding: 8,
    });
    expect(accepted.command_status).toBe(0);
    await eventually(() => c.received.length === 1, 'the ENROUTE notification arrives at once');
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT2S' } });
    await eventually(() => c.received.length === 2, 'the final receipt arrives');
    const [enroute, done] = c.received.map(messageOf);
    expect(enroute).toMatch(/ dlvrd:000 .* stat:ENROUTE /);
    expect(c.received[0]?.message_state).toBe(1);
    expect(done).toBe(
      `id:${String(accepted.message_id)} sub:001 dlvrd:001 submit date:2603011200 done date:2603011201 stat:DELIVRD err:000 text:Grüße ??`,
    );
    expect(done).not.toContain('\u0000');
    c.close();
  });

  it('a refused PDU is answered with its empty fields; hex and decimal message ids when configured', async () => {
    const { c, port, systemId } = await bound();
    // a refused submit_sm_resp: the header and message_id as an empty C string (17 octets in all)
    const raw = connect(port, '127.0.0.1');
    await new Promise((r) => raw.once('connect', r));
    raw.write(new smpp.PDU('bind_transceiver', { system_id: systemId, password: 'wrong' }).toBuffer());
    const refused = await new Promise<Buffer>((r) => raw.once('data', r));
    expect(refused.readUInt32BE(8)).toBe(SMPP_STATUS.ESME_RINVPASWD);
    expect(refused.readUInt32BE(0)).toBe(17);
    expect(refused.subarray(16)).toEqual(Buffer.from([0]));
    raw.destroy();
    const foreign = await c.call('submit_sm', {
      source_addr: '19995550100',
      destination_addr: '1',
      short_message: 'x',
    });
    expect(foreign.command_status).toBe(SMPP_STATUS.ESME_RINVSRCADR);
    c.close();
  });

  it('an idle bind is sent enquire_link; one that does not answer is closed', async () => {
    server().runtime.limits.smppEnquireLinkMs = 200;
    const port = (await listenSmpp(server().runtime, 0, '127.0.0.1')).port;
    const { systemId, secret } = await smppKey(server());
    // a peer that binds and then answers nothing
    const raw = connect(port, '127.0.0.1');
    await new Promise((r) => raw.once('connect', r));
    raw.write(new smpp.PDU('bind_transceiver', { system_id: systemId, password: secret }).toBuffer());
    const chunks: Buffer[] = [];
    raw.on('data', (d: Buffer) => chunks.push(d));
    const closed = new Promise((r) => raw.once('close', r));
    await closed;
    const commands = [];
    let all = Buffer.concat(chunks);
    while (all.length >= 16) {
      commands.push(all.readUInt32BE(4));
      all = all.subarray(all.readUInt32BE(0));
    }
    // bind_transceiver_resp, then enquire_link
    expect(commands).toEqual([0x80000009, 0x00000015]);
    // the unanswered enquire_link is journaled as the bind closes (over PostgreSQL, a moment after)
    const journaled = await eventually(async () => {
      const [last] = (await server().call('GET', '/__sim/requests?api=smpp', { key: null })).body.requests;
      return last?.method === 'ENQUIRE_LINK' && last;
    }, 'the enquire_link in the journal');
    expect(journaled).toMatchObject({ method: 'ENQUIRE_LINK', status: -1 });
  });
});

describe('SMPP message ids in another form', () => {
  for (const [form, pattern] of [
    ['hex', /^[0-9a-f]{16}$/],
    ['decimal', /^\d{1,19}$/],
  ] as const) {
    it(`--smpp-message-ids ${form}: submit_sm_resp and its receipt carry the same id`, async () => {
      const s = await startTestServer({ smppMessageIds: form });
      try {
        const port = (await listenSmpp(s.runtime, 0, '127.0.0.1')).port;
        const { systemId, secret } = await smppKey(s);
        const c = await client(port);
        expect(await c.bind('transceiver', systemId, secret)).toBe(0);
        const accepted = await c.call('submit_sm', {
          source_addr: '13125550100',
          destination_addr: '14155550123',
          registered_delivery: 1,
          short_message: 'hi',
        });
        expect(String(accepted.message_id)).toMatch(pattern);
        await s.call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT2S' } });
        await eventually(() => c.received.length === 1, 'the receipt arrives');
        expect(c.received[0]?.receipted_message_id).toBe(accepted.message_id);
        expect(messageOf(c.received[0]!)).toMatch(new RegExp(`^id:${String(accepted.message_id)} `));
        c.close();
      } finally {
        await s.close();
      }
    });
  }
});
