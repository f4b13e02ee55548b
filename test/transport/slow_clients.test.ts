/**
 * A slow client never stalls the simulation: an SMPP bind that neither reads nor answers holds no
 * control call past its bound; its window fills, it is closed, and its key's messages wait for
 * another bind. Another account's traffic goes on meanwhile.
 */
import { eventually } from '../support/eventually.js';
import { describe, expect, it } from 'vitest';
import { SMPP_WINDOW } from '../../src/engine/transport/smpp_binds.js';
import { listenSmpp } from '../../src/server.js';
import { envelope, useServer, type TestServer } from '../support/helpers.js';
import { connect } from 'node:net';
import smpp from 'smpp';

const NUMBER = '+13125550100';

async function smppSwitch(s: TestServer) {
  const key = (await s.call('POST', '/api/v1/api_keys', { body: envelope('api_key', { name: 'smpp' }) })).body.data;
  const sw = (
    await s.call('POST', '/api/v1/switches', {
      body: envelope('switch', { name: 'smpp', sms_enabled: true, sms_protocol: 'SMPP', api_key_id: key.id }),
    })
  ).body.data;
  await s.call('PATCH', `/api/v1/numbers/${NUMBER}`, { body: envelope('did', { switch_id: sw.id }) });
  return { systemId: key.smpp_system_id as string, secret: key.smpp_secert as string };
}

describe('a slow client', () => {
  const server = useServer();

  it('a bound receiver that never reads: 200 inbound calls, 20 at a time, each answered within 15 s', async () => {
    // the window alone closes this bind: its keepalive (enquire_link after 30 s of silence) is put off
    server().runtime.limits.smppEnquireLinkMs = 600_000;
    const port = (await listenSmpp(server().runtime, 0, '127.0.0.1')).port;
    const { systemId, secret } = await smppSwitch(server());
    // a raw connection that binds, then reads nothing: its buffers fill, no deliver_sm is ever answered
    const socket = connect(port, '127.0.0.1');
    // the server closes this bind once its window is spent: a reset of a connection that never read is expected
    socket.on('error', (e: NodeJS.ErrnoException) => expect(e.code).toBe('ECONNRESET'));
    await new Promise((r) => socket.once('connect', r));
    socket.write(new smpp.PDU('bind_receiver', { system_id: systemId, password: secret }).toBuffer());
    const bindResp = await new Promise<Buffer>((r) => socket.once('data', r));
    expect(bindResp.readUInt32BE(8), 'bind_resp command_status').toBe(0);
    socket.pause();
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { name: 'other' } })).body;

    const traces: string[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const calls = Array.from({ length: 20 }, async (_, i) => {
        const answer = await server().call('POST', '/__sim/inbound/sms', {
          key: null,
          body: { to: NUMBER, from: '+14155550123', text: `message ${wave * 20 + i}` },
        });
        expect(answer.status).toBe(200);
        traces.push(answer.body.trace.at(-1).detail);
      });
      await Promise.all(calls);
      // another account is never held up by this one's bind
      const other = await server().call('GET', '/api/v1/numbers', { key: box.keys.admin });
      expect(other.status).toBe(200);
    }
    // each call answered (the test's timeout is the bound's failure): as pending while the bind held them, then as waiting once it was closed
    expect(traces.some((t) => t.startsWith('pending'))).toBe(true);
    expect(traces.at(-1)).toBe('no bind of the key: waiting for one');
    // each exchange is journaled beside the traffic, a moment after it on PostgreSQL
    const journal = await eventually(async () => {
      const page = (await server().call('GET', '/__sim/requests?api=smpp&method=DELIVER_SM', { key: null })).body;
      return page.count >= SMPP_WINDOW ? page : undefined;
    }, 'every deliver_sm journaled');
    expect(journal.count).toBe(SMPP_WINDOW);
    socket.destroy();
  }, 180_000);
});
