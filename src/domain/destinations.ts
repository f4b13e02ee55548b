/**
 * DID destination rules (spec: Resources > DID destination): what `destination` holds for each
 * type, TTS_MESSAGE_SET's `UNUSED` and message set id, and the auth HTTP_ROUTE may use.
 */
import type { components } from '../generated/api.js';
import { voiceTargetProblem } from './addresses.js';
import type { Violation } from './switches.js';

export type Destination = components['schemas']['destination'];

/** Everything wrong with a destination as it would be stored. */
export function destinationViolations(d: Destination, authSecret: string | null): Violation[] {
  const out: Violation[] = [];
  if (d.type === 'TTS_MESSAGE_SET') {
    if (!d.tts_message_set_id)
      out.push({
        pointer: '/data/tts_message_set_id',
        detail: 'tts_message_set_id is required for type TTS_MESSAGE_SET.',
      });
  } else {
    const problem = voiceTargetProblem[d.type](d.destination);
    if (problem) out.push({ pointer: '/data/destination', detail: `destination ${problem} for type ${d.type}.` });
    if (d.tts_message_set_id)
      out.push({ pointer: '/data/tts_message_set_id', detail: 'tts_message_set_id is only for type TTS_MESSAGE_SET.' });
  }
  if (d.auth_method === 'BASIC' && !d.auth_identity)
    out.push({ pointer: '/data/auth_identity', detail: 'auth_identity is required for BASIC auth.' });
  if (d.auth_method !== 'NONE' && !authSecret)
    out.push({ pointer: '/data/auth_secret', detail: `auth_secret is required for ${d.auth_method} auth.` });
  return out;
}
