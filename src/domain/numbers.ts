/**
 * A number's record as the provider's public client reads it (interface.md section 9, envelope
 * type `did`): the fields a new number starts with, and the upgrade of a record stored before
 * those fields (`messaging_enabled` became `sms_enabled` and `mms_enabled`).
 */
import type { components } from '../generated/api.js';

export type Did = components['schemas']['number'];

/** A new number's record: activated, every service on, the rest unset. */
export function newDid(fields: Pick<Did, 'id' | 'number' | 'inserted_at' | 'updated_at'> & Partial<Did>): Did {
  return {
    activated: true,
    sms_enabled: true,
    mms_enabled: true,
    voice_enabled: true,
    description: null,
    forward_number: null,
    help_message: null,
    message_class: null,
    tier: null,
    state: null,
    rate_center: null,
    upgrade_asset_handling: null,
    segment_threshold: null,
    segment_overrides: [],
    ...fields,
  };
}

/** A record of any earlier shape as a `did` record (stores and fixture files written before). */
export function upgradeDid(data: object): Did {
  // a stored record is read as the shape it was written in: this one is a `did` already
  if ('sms_enabled' in data) return data as Did;
  const { messaging_enabled, ...rest } = data as Partial<Did> & { messaging_enabled?: boolean } & Pick<
      Did,
      'id' | 'number' | 'inserted_at' | 'updated_at'
    >;
  const messaging = messaging_enabled ?? true;
  return newDid({ ...rest, sms_enabled: messaging, mms_enabled: messaging });
}
