/**
 * A body made at each attempt, for the transports that send one (HTTP, SFTP): a message in a format
 * that carries its media (fetched now, composed, signed when asked), or a stored result file (read,
 * archived when named so); else the body as stored.
 */
import { createHmac } from 'node:crypto';
import type { OutboundOf } from '../../domain/rows.js';
import type { Frozen } from '../../domain/frozen.js';
import { tarGz } from './archive.js';
import { DELIVERY_TIMEOUT_MS, type AttemptContext } from './attempt.js';
import { composeBody, fetchMedia } from './mime.js';

/** The headers and body an HTTP or SFTP delivery sends at this attempt. */
export async function madeBody(
  spec: Frozen<OutboundOf<'http' | 'sftp'>>,
  ctx: AttemptContext,
): Promise<{ headers: Record<string, string>; body: string | Buffer }> {
  const c = spec.compose;
  if (c) {
    const media = await fetchMedia(c.message.media_urls ?? [], DELIVERY_TIMEOUT_MS, ctx.policy);
    const { contentType, body } = composeBody(c, media);
    const signed: Record<string, string> = c.hmac_secret
      ? { authorization: `SERVICE0-HMAC-SHA256 ${createHmac('sha256', c.hmac_secret).update(body).digest('hex')}` }
      : {};
    return { headers: { ...spec.headers, 'content-type': contentType, ...signed }, body };
  }
  const source = spec.body_file;
  if (!source) return { headers: { ...spec.headers }, body: spec.body };
  const file = (await ctx.file(source.id)) ?? Buffer.alloc(0);
  const name = source.archive_name;
  return { headers: { ...spec.headers }, body: name ? await tarGz(name, file, ctx.nowMs) : file };
}
