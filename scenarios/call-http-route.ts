/** An inbound call asks the client's HTTP route where to go, and goes there. */
import { scenario } from '../src/testing/scenario.js';

export default scenario(
  'call-http-route',
  "An inbound call is routed by the client's HTTP route callback",
  async (s) => {
    const router = await s.receiver();
    router.replies.push(
      { contentType: 'text/plain', body: 'SKIP:' },
      {
        contentType: 'application/json',
        body: JSON.stringify({
          type: 'http_route_response',
          data: { type: 'VOIP', data: '1001@pbx.demo-telecom.example:5060' },
        }),
      },
    );
    const path = '/api/v1/numbers/+13125550108/destinations';
    await s.api('POST', path, {
      body: {
        type: 'number_destination',
        data: { type: 'HTTP_ROUTE', destination: `${router.url}/first`, priority: 1 },
      },
    });
    await s.api('POST', path, {
      body: {
        type: 'number_destination',
        data: {
          type: 'HTTP_ROUTE',
          destination: `${router.url}/second`,
          priority: 2,
          auth_method: 'BEARER',
          auth_secret: 'route-token',
        },
      },
    });
    await s.api('POST', path, {
      body: { type: 'number_destination', data: { type: 'TTS', destination: 'BUSY', priority: 9 } },
    });
    const call = await s.call('+13125550108', '+14155550123');
    s.expect(
      router.received.length === 2 && router.received.every((r) => r.method === 'GET'),
      'both routes are asked, each with a GET',
    );
    s.expect(
      router.received[1]?.headers.authorization === 'Bearer route-token',
      'the second route gets its bearer token',
    );
    s.expect(
      call.decision.type === 'VOIP' && call.decision.data === '1001@pbx.demo-telecom.example:5060',
      'the first SKIPs; the second sends the call to VOIP',
    );
  },
);
