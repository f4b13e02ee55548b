/** Error texts that say what is wrong: a duration too large, a key without its scheme, the control contract as YAML. */
import { describe, expect, it } from 'vitest';
import { onlyError, useServer } from '../support/helpers.js';

describe('error texts that do not mislead', () => {
  const server = useServer();

  it('a valid ISO 8601 duration too large to add is said to be too large, not to be no duration', async () => {
    const huge = await server().call('POST', '/__sim/clock/advance', {
      key: null,
      body: { by: 'PT99999999999999999999H' },
    });
    expect(huge.status).toBe(422);
    expect(onlyError(huge).detail).toMatch(/too large/);
    const garbage = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'ten minutes' } });
    expect(onlyError(garbage).detail).toMatch(/ISO 8601 duration/);
    expect(onlyError(garbage).detail).not.toMatch(/too large/);
  });

  it('a key sent without Bearer is told the scheme is missing, and the key is not echoed', async () => {
    const answer = await server().call('GET', '/api/v1/carts', {
      key: null,
      headers: { authorization: 'demo-admin-key' },
    });
    expect(answer.status).toBe(403);
    const error = onlyError(answer);
    expect(error).toMatchObject({ code: 'access_denied.unauthenticated', sub_code: 'missing_key' });
    expect(error.detail).toMatch(/no scheme/);
    expect(error.detail).not.toContain('demo-admin-key');
  });

  it('/__sim/openapi?format=yaml answers YAML, as /api/v1/openapi?format=yaml does', async () => {
    for (const path of ['/__sim/openapi?format=yaml', '/api/v1/openapi?format=yaml']) {
      const answer = await server().call('GET', path, { key: null });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/application\/yaml/);
      expect(answer.text.startsWith('openapi: 3.1.0')).toBe(true);
    }
  });
});
