/** The `HMAC_SHA256` auth method's signature (docs/webhooks.md): `Authorization: SERVICE0-HMAC-SHA256 <hex>`. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whether `header` (the Authorization received) signs `body` (the raw bytes, as received) with `secret`. */
export function verifySignature(header: string | undefined | null, body: Buffer | string, secret: string): boolean {
  const [scheme, hex = '', ...rest] = String(header ?? '').split(' ');
  if (scheme !== 'SERVICE0-HMAC-SHA256' || rest.length || !/^[0-9a-f]{64}$/.test(hex)) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(body).digest(), Buffer.from(hex, 'hex'));
}
