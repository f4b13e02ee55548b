/** The rows of the outbox and delivery log: what a delivery sends, and every attempt of it. */
import type { components } from '../generated/sim.js';
import type { Frozen } from './frozen.js';

/** A delivery as the control API shows it (contract/sim.yaml `delivery`): its log entry, every attempt of it. */
type DeliveryData = components['schemas']['delivery'];
export type DeliveryKind = DeliveryData['kind'];
export type DeliveryOutcome = DeliveryData['outcome'];
export type Attempt = components['schemas']['attempt'];

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

/** What every delivery's request carries, whatever its transport. */
interface OutboundCommon {
  url: string;
  headers: Record<string, string>;
  /** The body as text (for a message composed or a file read at each attempt: what the log shows). */
  body: string;
  /** An inbound message's format (SMSFMT_…, MMSFMT_…), for the coverage of what a client received. */
  format?: string;
  /** What the delivery log should say about it (credentials missing, say). */
  note?: string | null;
}

/** A body made at each attempt: a stored file (a bulk dip's results, archived when named so), or a composed message. */
interface MadeBody {
  body_file?: { id: string; archive_name?: string };
  compose?: ComposedMessage;
}

/** The login and file name of an SFTP upload (never logged). */
export interface SftpUpload {
  username: string;
  password: string;
  filename: string;
}

/**
 * What a delivery sends, one variant per transport, each with exactly its fields; `method` says which
 * (and is what the delivery log shows). Rows are stored in this shape, so a row written before is
 * read as it is.
 */
export type OutboundSpec =
  | (OutboundCommon & MadeBody & { method: 'GET' | 'POST' | 'PUT' })
  | (OutboundCommon & MadeBody & { method: 'SFTP'; sftp: SftpUpload })
  | (OutboundCommon & { method: 'SMPP'; smpp: SmppMessage })
  | (OutboundCommon & { method: 'MM4'; mm4: Mm4Message })
  | (OutboundCommon & { method: 'CHAT' });

/** The transports, by the method of the request they send. */
const TRANSPORT_OF = {
  GET: 'http',
  POST: 'http',
  PUT: 'http',
  SFTP: 'sftp',
  SMPP: 'smpp',
  MM4: 'mm4',
  CHAT: 'chat',
} as const satisfies Record<OutboundSpec['method'], string>;

export type TransportName = (typeof TRANSPORT_OF)[OutboundSpec['method']];

/** The variant of one transport. */
export type OutboundOf<T extends TransportName> = Extract<
  OutboundSpec,
  {
    method: {
      [M in keyof typeof TRANSPORT_OF]: (typeof TRANSPORT_OF)[M] extends T ? M : never;
    }[keyof typeof TRANSPORT_OF];
  }
>;

/** The transport that sends a request. */
export const transportOf = (spec: Pick<OutboundSpec, 'method'>): TransportName => TRANSPORT_OF[spec.method];

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
  /** The `traceparent` of the call (or step) that made it, when traces are on: its attempts' spans are tied to it. */
  cause?: string;
  data: DeliveryData;
}>;
