/** What the listener tests route and check: a switch whose SMS go to a listener, and the signature it carries. */
import { createHmac } from 'node:crypto';

/** The secret `listenedSwitch` signs with. */
const SECRET = 'sign-me';

/** A switch (its `data`) sending SMS to `target` (`https://NAME.listen.invalid/...`), signed with HMAC_SHA256. */
export const listenedSwitch = (target = 'https://laptop.listen.invalid/sms') => ({
  name: 'to the laptop',
  sms_enabled: true,
  sms_protocol: 'HTTP',
  sms_data: target,
  sms_auth_method: 'HMAC_SHA256',
  sms_secret: SECRET,
});

/** The Authorization header a delivery of `body` carries, signed by `listenedSwitch`'s secret. */
export const signedAs = (body: Buffer | string): string =>
  `SERVICE0-HMAC-SHA256 ${createHmac('sha256', SECRET).update(body).digest('hex')}`;
