/** The rows of the outbox and delivery log: what a delivery sends, and every attempt of it. */
import type { components } from '../generated/sim.js';
import type { Frozen } from './frozen.js';

/** A delivery as the control API shows it (contract/sim.yaml `delivery`): its log entry, every attempt of it. */
type DeliveryData = components['schemas']['delivery'];
export type DeliveryKind = DeliveryData['kind'];
export type DeliveryOutcome = DeliveryData['outcome'];
export type Attempt = components['schemas']['attempt'];

/** What a delivery sends: an HTTP request, or an SFTP upload (method SFTP). */
/** A message for an SMPP bind: one deliver_sm, or its parts, to a receiving bind of the key. */
export interface SmppMessage {
  key_id: string;
  system_id: string;
  source_addr: string;
  destination_addr: string;
  text: string;
  /** A delivery receipt (esm_class 0x04) for the message with this id, rather than a message. */
  receipt_for?: string;
  /** A receipt's message_state (SMPP 3.4 5.2.28): 2 DELIVERED (the default), 1 ENROUTE (an intermediate notification). */
  receipt_state?: number;
}

/** An inbound MMS for an MM4 relay (src/engine/transport/mm4.ts): composed, media fetched, at each attempt. */
export interface Mm4Message {
  url: string;
  message_id: string;
  date: string;
  from: string;
  to: string;
  text: string;
  media_urls: readonly string[];
  username: string | null;
  password: string | null;
  /** The switch's `mms_name` (the spec: MM4's display name), written as From's display name. */
  display_name?: string | null;
}

/** An MMS in a format that carries its media: composed, media fetched, signed, at each attempt (src/engine/transport/mime.ts). */
export interface ComposedMessage {
  format: 'MMSFMT_MULTIPART_1_0' | 'MMSFMT_MULTIPART_2_0' | 'MMSFMT_RFC822_1_0';
  message: { id: string; from: string; to: string; text: string; received_at: string; media_urls?: readonly string[] };
  /** HMAC_SHA256 auth: the secret the exact body is signed with. */
  hmac_secret: string | null;
}

export interface OutboundSpec {
  method: 'GET' | 'POST' | 'PUT' | 'SFTP' | 'SMPP' | 'MM4' | 'CHAT';
  url: string;
  headers: Record<string, string>;
  /** The body as text; or, for a bulk dip result, read from the file area at each attempt. */
  body: string;
  body_file?: { id: string; archive_name?: string };
  sftp?: { username: string; password: string; filename: string };
  smpp?: SmppMessage;
  mm4?: Mm4Message;
  compose?: ComposedMessage;
  /** An inbound message's format (SMSFMT_…, MMSFMT_…), for the coverage of what a client received. */
  format?: string;
  /** What the delivery log should say about it (credentials missing, say). */
  note?: string | null;
}

/** What settling a delivery does besides logging it: a bulk dip's on-done action learns its outcome. */
export interface Settle {
  kind: 'bulk_dip_action';
  task_id: string;
  index: number;
}

/** One outbound delivery: the outbox entry and its log, with every attempt (secrets redacted in `data`). */
export type DeliveryRow = Frozen<{
  account_id: string;
  /** The request as it is sent, secrets included; never shown. */
  request: OutboundSpec;
  retry: boolean;
  settle: Settle | null;
  data: DeliveryData;
}>;
