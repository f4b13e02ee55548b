/** An OSR overwrite request is raised, announced, left unreviewed, and goes stale. */
import { scenario } from '../src/testing/scenario.js';

export default scenario('osr-raise-expire', 'An overwrite request is raised and, unreviewed, goes STALE', async (s) => {
  const hooks = await s.receiver();
  await s.api('POST', '/api/v1/event_subscriptions', {
    body: {
      type: 'event_subscription',
      data: { name: 'osr watch', protocol: 'HTTP', data: `${hooks.url}/osr`, topics: ['OSR'] },
    },
  });
  const raised = await s.api('POST', '/__sim/osr/overwrite_requests', {
    key: null,
    body: { number: '+13125550103', service_provider: 'Tailspin Texting (NNID 112233)' },
  });
  s.expect(raised.status === 201 && raised.body.data.status === 'NEW', 'the request is raised with status NEW');
  const id = raised.body.data.id as string;
  s.expect(
    hooks.received.some((r) => r.json().data.kind === 'osr.created'),
    'an osr.created event reaches the subscription',
  );
  await s.advance('P6D');
  s.expect(
    (await s.api('GET', `/api/v1/osr/overwrite_requests/${id}`)).body.data.status === 'NEW',
    'six days on, it is still NEW',
  );
  await s.advance('P1D');
  const stale = (await s.api('GET', `/api/v1/osr/overwrite_requests/${id}`)).body.data;
  s.expect(stale.status === 'STALE' && stale.is_stale === true, 'past expires_at it is STALE, is_stale true');
  s.expect(
    hooks.received.some((r) => r.json().data.kind === 'osr.stale'),
    'an osr.stale event reaches the subscription',
  );
});
