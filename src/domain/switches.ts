/**
 * The rules of a switch (spec: Resources > Switch): what `sms_data`, `mms_data` and `voice_data`
 * must hold for each protocol, and that MM4 takes only BASIC auth. Nothing else is required ("The
 * only required field on create is `name`; all others may be left empty"): an auth method without
 * its identity or secret, or SMPP without an API key, is found when a message is delivered.
 */
import type { components } from '../generated/api.js';
import type { Draft, SwitchSecrets } from './rows.js';
import {
  httpUrlProblem,
  mm4UrlProblem,
  phoneProblem,
  sftpUrlProblem,
  unusedProblem,
  voiceTargetProblem,
  type Problem,
} from './addresses.js';

export type Switch = components['schemas']['switch'];
type Writable = components['schemas']['switch_writable'];

export interface Violation {
  pointer: string;
  detail: string;
}

const NO_OPTIONS = { dlr_on_sent: false, forward_dlr: false, pad_shortcodes: false };

/** A new switch's fields before the request's are laid over them. */
export const switchDefaults = (): Omit<Switch, 'id' | 'name' | 'inserted_at' | 'updated_at'> => ({
  notes: null,
  sms_enabled: false,
  sms_protocol: 'NONE',
  sms_data: null,
  sms_auth_method: 'NONE',
  sms_identity: null,
  sms_name: null,
  sms_message_format: 'SMSFMT_JSON_1_0',
  sms_signing_scheme: 'NONE',
  sms_signing_hash: 'NONE',
  sms_encryption_method: 'NONE',
  sms_options: { ...NO_OPTIONS },
  mms_enabled: false,
  mms_protocol: 'NONE',
  mms_data: null,
  mms_auth_method: 'NONE',
  mms_identity: null,
  mms_name: null,
  mms_message_format: 'MMSFMT_JSON_1_0',
  mms_signing_scheme: 'NONE',
  mms_signing_hash: 'NONE',
  mms_encryption_method: 'NONE',
  mms_options: { ...NO_OPTIONS },
  voice_enabled: false,
  voice_protocol: 'NONE',
  voice_data: null,
  voice_auth_method: 'NONE',
  voice_identity: null,
  voice_name: null,
});

const SECRET_FIELDS = ['sms_secret', 'mms_secret', 'voice_secret'] as const;

/**
 * Lays a request's fields over a switch: options merge field by field, secrets go to the hidden
 * part, everything else replaces. MM4 takes BASIC auth when the request names none.
 */
export function applySwitchFields(data: Draft<Switch>, secrets: Draft<SwitchSecrets>, fields: Writable): void {
  const { sms_options, mms_options, sms_secret, mms_secret, voice_secret, ...rest } = fields;
  const sent = { sms_secret, mms_secret, voice_secret };
  for (const f of SECRET_FIELDS) if (f in fields) secrets[f] = sent[f] ?? null;
  Object.assign(data, rest);
  if (sms_options) data.sms_options = { ...data.sms_options, ...sms_options };
  if (mms_options) data.mms_options = { ...data.mms_options, ...mms_options };
  if (fields.mms_protocol === 'MM4' && fields.mms_auth_method === undefined) data.mms_auth_method = 'BASIC';
}

const SMS_DATA: Partial<Record<Switch['sms_protocol'], (v: string | null | undefined) => Problem>> = {
  HTTP: httpUrlProblem,
  FORWARD: phoneProblem,
  SERVICE_CHAT: unusedProblem,
};

const MMS_DATA: Partial<Record<Switch['mms_protocol'], (v: string | null | undefined) => Problem>> = {
  MM4: mm4UrlProblem,
  HTTP: httpUrlProblem,
  SFTP: sftpUrlProblem,
  FORWARD: phoneProblem,
  SERVICE_CHAT: unusedProblem,
};

/** Everything wrong with a switch as it would be stored; empty when it may be stored. */
export function switchViolations(s: Switch): Violation[] {
  const out: Violation[] = [];
  const check = (
    field: 'sms_data' | 'mms_data' | 'voice_data',
    protocol: string,
    rule?: (v: string | null | undefined) => Problem,
  ) => {
    const problem = rule?.(s[field]);
    if (problem) out.push({ pointer: `/data/${field}`, detail: `${field} ${problem} for protocol ${protocol}.` });
  };
  check('sms_data', s.sms_protocol, SMS_DATA[s.sms_protocol]);

  check('mms_data', s.mms_protocol, MMS_DATA[s.mms_protocol]);
  if (s.mms_protocol === 'MM4' && s.mms_auth_method !== 'BASIC') {
    out.push({ pointer: '/data/mms_auth_method', detail: 'MM4 supports only BASIC auth.' });
  }

  if (s.voice_protocol !== 'NONE') check('voice_data', s.voice_protocol, voiceTargetProblem[s.voice_protocol]);
  return out;
}
