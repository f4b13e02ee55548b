/** Inbound SMS through a switch, an auto response, and a STOP that silences the auto replies. */
import { scenario } from '../src/testing/scenario.js';

export default scenario(
  'sms-auto-response-stop',
  'Inbound SMS meets an auto response, then STOP opts the sender out',
  async (s) => {
    const app = await s.receiver();
    const sw = await s.api('POST', '/api/v1/switches', {
      body: {
        type: 'switch',
        data: {
          name: 'scenario inbound',
          sms_enabled: true,
          sms_protocol: 'HTTP',
          sms_data: `${app.url}/sms`,
          sms_auth_method: 'HMAC_SHA256',
          sms_secret: 'scenario-signing',
        },
      },
    });
    const ar = await s.api('POST', '/api/v1/auto_responses', {
      body: {
        type: 'messaging_auto_response',
        data: {
          name: 'front desk',
          keywords: [
            { keyword: 'hours', message: 'Open 7am-7pm, Mon-Sat.', intercept: true },
            { is_wildcard: true, message: 'Thanks, we will reply soon.' },
          ],
        },
      },
    });
    const bound = await s.api('PATCH', '/api/v1/numbers/+13125550102', {
      body: { type: 'did', data: { switch_id: sw.body.data.id, auto_response_id: ar.body.data.id } },
    });
    s.expect(bound.status === 200, 'the number is bound to the switch and the auto response');
    const hours = await s.sms('+13125550102', '+14155550188', 'Hours');
    s.expect(hours.outbound[0]?.text === 'Open 7am-7pm, Mon-Sat.', 'HOURS is answered, case-insensitively');
    s.expect(app.received.length === 0, 'the intercepting keyword is not forwarded to the switch');
    const other = await s.sms('+13125550102', '+14155550188', 'Is the patio open?');
    s.expect(
      other.outbound[0]?.text === 'Thanks, we will reply soon.' && app.received.length === 1,
      'anything else gets the wildcard reply and reaches the switch',
    );
    s.expect(
      app.received[0]?.headers.authorization?.startsWith('SERVICE0-HMAC-SHA256 ') === true,
      'the switch endpoint gets an HMAC-signed request',
    );
    const stop = await s.sms('+13125550102', '+14155550188', 'STOP');
    s.expect(
      stop.trace.some((t: { step: string }) => t.step === 'opt_out'),
      'STOP creates an opt-out item',
    );
    const after = await s.sms('+13125550102', '+14155550188', 'hello?');
    s.expect(
      after.outbound.length === 0 && app.received.length === 3,
      'after STOP, messages still arrive but get no auto reply',
    );
    const items = await s.api('GET', '/api/v1/numbers/+13125550102/optout_items');
    s.expect(
      items.body.results.some((r: { data: { keyword: string } }) => r.data.keyword === 'STOP'),
      'the opt-out item carries the keyword',
    );
  },
);
