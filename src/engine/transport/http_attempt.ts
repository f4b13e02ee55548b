/**
 * The HTTP transport of the delivery worker (and SFTP's, whose upload http_client.ts sends): the
 * request as it goes out (a message composed with its media, or a stored result file, archived when
 * asked) sent once; answered by a 2xx, failed otherwise.
 */
import { createHmac } from 'node:crypto';
import type { DeliveryRow } from '../../domain/rows.js';
import { tarGz } from './archive.js';
import { DELIVERY_TIMEOUT_MS, outcomeOf, refusedOutcome, type AttemptContext, type Transport } from './attempt.js';
import { send, type OutboundRequest } from './http_client.js';
import { composeBody, fetchMedia } from './mime.js';
import { OutboundRefused, type OutboundPolicy } from './outbound.js';

export const httpAttempt: Transport = async (row, attempt, ctx) => {
  try {
    const request = await requestOf(row, ctx);
    const sent = {
      headers: request.sftp ? { 'sftp-file': `${request.url} ${request.sftp.filename}` } : request.headers,
      body: request.body,
    };
    const response = await send(request, DELIVERY_TIMEOUT_MS, ctx.policy);
    const done = { ...attempt, status: response.status };
    if (response.status < 200 || response.status > 299)
      return { ...outcomeOf({ ...done, error: `answered ${response.status}` }, null), sent };
    return { ...outcomeOf(done, response), sent };
  } catch (e) {
    if (e instanceof OutboundRefused) return refusedOutcome(attempt, e.message);
    return outcomeOf({ ...attempt, error: (e as Error).message }, null);
  }
};

/** A message in a format that carries its media: fetched now, the body composed, signed when asked. */
async function composed(spec: DeliveryRow['request'], policy: OutboundPolicy): Promise<OutboundRequest> {
  const c = spec.compose;
  const media = c ? await fetchMedia(c.message.media_urls ?? [], DELIVERY_TIMEOUT_MS, policy) : [];
  const { contentType, body } = c ? composeBody(c, media) : { contentType: '', body: Buffer.alloc(0) };
  const signed: Record<string, string> = c?.hmac_secret
    ? { authorization: `SERVICE0-HMAC-SHA256 ${createHmac('sha256', c.hmac_secret).update(body).digest('hex')}` }
    : {};
  return { ...spec, headers: { ...spec.headers, 'content-type': contentType, ...signed }, body };
}

/** The request as it goes out; a result file is read (and archived) at each attempt. */
async function requestOf(row: DeliveryRow, ctx: AttemptContext): Promise<OutboundRequest> {
  const spec = row.request;
  if (spec.compose) return composed(spec, ctx.policy);
  const source = spec.body_file;
  if (!source) return { ...spec, headers: { ...spec.headers } };
  const file = (await ctx.file(source.id)) ?? Buffer.alloc(0);
  const name = source.archive_name;
  return { ...spec, headers: { ...spec.headers }, body: name ? await tarGz(name, file, ctx.nowMs) : file };
}
