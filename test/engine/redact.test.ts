// The one redaction rule (src/engine/redact.ts): what the journal, the delivery log and the server log show.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactBody, redactHeaders, redactText, redactUrl } from '../../src/engine/redact.js';

describe('redaction', () => {
  it("a URL's password goes, wherever the URL sits in a body; a string without one is kept as it is", () => {
    expect(redactUrl('https://user:pw@hooks.example/x')).toBe(`https://user:${REDACTED}@hooks.example/x`);
    expect(redactUrl('https://token@hooks.example/x')).toBe(`https://${REDACTED}@hooks.example/x`);
    const body = { type: 'event_subscription', data: { url: 'https://u:p@h.example/in', name: 'a@b', notes: 'plain' } };
    expect(redactBody(body)).toEqual({
      type: 'event_subscription',
      data: { url: `https://u:${REDACTED}@h.example/in`, name: 'a@b', notes: 'plain' },
    });
    // a copy: the body itself is untouched
    expect(body.data.url).toBe('https://u:p@h.example/in');
  });

  it("a secret field's value goes, in a body and in a text that is not JSON; a text without a quote is kept", () => {
    expect(redactBody({ type: 'api_key', data: { key: 'live-secret', name: 'k' } })).toEqual({
      type: 'api_key',
      data: { key: REDACTED, name: 'k' },
    });
    expect(redactText('{"data": {"key": "live-secret", "name": "k"')).toBe(
      `{"data": {"key":"${REDACTED}", "name": "k"`,
    );
    expect(redactText('GET /api/v1/api_keys 200 1.2 ms')).toBe('GET /api/v1/api_keys 200 1.2 ms');
    expect(redactText('posted to https://u:p@h.example/in')).toBe(`posted to https://u:${REDACTED}@h.example/in`);
  });

  it('a secret header goes; an auth header keeps its scheme', () => {
    expect(
      redactHeaders({ authorization: 'Bearer demo-admin-key', 'x-api-token': 't', accept: 'application/json' }),
    ).toEqual({ authorization: `Bearer ${REDACTED}`, 'x-api-token': REDACTED, accept: 'application/json' });
  });
});
