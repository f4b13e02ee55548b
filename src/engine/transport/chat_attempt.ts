/**
 * The platform's chat inbox (SERVICE_CHAT): nothing leaves the process. A CHAT delivery is received
 * as it is written (src/simulation/inbound/sms.ts settles it at once); an attempt of one, should its
 * step run, is answered at once.
 */
import type { OutboundOf } from '../../domain/rows.js';
import { outcomeOf, type Transport } from './attempt.js';

export const chatAttempt: Transport<OutboundOf<'chat'>> = async (_row, spec, attempt) => ({
  ...outcomeOf({ ...attempt, status: 200 }, { status: 200, headers: {}, body: '' }),
  sent: { headers: {}, body: spec.body },
});
