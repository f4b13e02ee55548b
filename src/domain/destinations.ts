/**
 * DID destination rules (spec: Resources > DID destination): what `destination` holds for each
 * type, and TTS_MESSAGE_SET's `UNUSED` and message set id ("`tts_message_set_id` must be supplied").
 */
import type { components } from '../generated/api.js';
import { voiceTargetProblem } from './addresses.js';
import type { Violation } from './switches.js';

export type Destination = components['schemas']['destination'];

/** Everything wrong with a destination as it would be stored. */
export function destinationViolations(d: Destination): Violation[] {
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
  }
  // credentials are not required (the spec marks none): an HTTP route call without them says so in
  // the delivery log, and the route answers as it will
  return out;
}
