/**
 * An inbound SMS or MMS (interface.md section 7): its CDR, opt-out keywords, the number's auto
 * response, then the number's switch by its protocol. Each stage adds to the trace the control API
 * answers with.
 */
import { toE164 } from '../../domain/addresses.js';
import { matchKeyword } from '../../domain/keywords.js';
import type { DeliveryRow, NumberRow, SwitchRow } from '../../domain/rows.js';
import type { Work } from '../../engine/work.js';
import { findNumber, type TraceStep } from './common.js';
import { extensionOf, switchRequest } from './formats.js';
import { sftpLogin } from '../outbound.js';

/** Spec (glossary): the keywords that opt a subscriber out. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];

/** A delivery receipt in the usual SMPP text form: `id:… sub:… dlvrd:… submit date:… done date:… stat:…`. */
export const isDeliveryReceipt = (text: string): boolean => /^id:\S+ .*\bstat:[A-Z]+/i.test(text.trim());

/** Spec (switch options): pads a short code with leading zeroes to 11 digits. */
const padShortCode = (from: string): string => (/^\d{5,6}$/.test(from) ? from.padStart(11, '0') : from);

export interface SmsOutcome {
  message: Record<string, unknown>;
  trace: TraceStep[];
  outbound: { from: string; to: string; text: string; reason: string }[];
  /** The delivery to the switch, to be finished once it ran: its trace step and the receipt it may send. */
  switchDelivery?: {
    id: string;
    protocol: 'HTTP' | 'SMPP' | 'MM4' | 'SFTP';
    dlr: { from: string; to: string; text: string } | null;
  };
}

export interface SmsInput {
  to: string;
  from: string;
  text: string;
  media_urls?: readonly string[];
}

/** One message on its way through the stages. */
interface Arrival {
  work: Work;
  input: SmsInput;
  number: NumberRow;
  kind: 'sms' | 'mms';
  from: string;
  message: Record<string, unknown> & { id: string };
  outcome: SmsOutcome;
}

/** An SMS or MMS arrives at one of the account's numbers (inside the account's unit of work). */
export async function receiveSms(work: Work, input: SmsInput): Promise<SmsOutcome> {
  const { clock, ids } = work;
  const number = await findNumber(work, input.to);
  const kind = input.media_urls?.length ? 'mms' : 'sms';
  const from = /^\d{5,6}$/.test(input.from) ? input.from : toE164(input.from);
  const message = {
    id: ids.ulid(),
    from,
    to: number.data.number,
    text: input.text,
    received_at: clock.iso(),
    ...(kind === 'mms' ? { media_urls: input.media_urls } : {}),
  };
  const trace: TraceStep[] = [
    { step: 'received', detail: `${kind.toUpperCase()} ${message.id} from ${from} to ${number.data.number}` },
  ];
  const a: Arrival = { work, input, number, kind, from, message, outcome: { message, trace, outbound: [] } };
  await sendCdr(a);
  const optedOutBefore = await optOut(a);
  if (await autoRespond(a, optedOutBefore)) return a.outcome;
  await toSwitch(a);
  return a.outcome;
}

async function sendCdr(a: Arrival): Promise<void> {
  const sent = await a.work.outbox.cdr(a.kind === 'mms' ? 'MMS' : 'SMS', {
    from: a.from,
    to: a.number.data.number,
    message_id: a.message.id,
    direction: 'INBOUND',
  });
  if (sent) a.outcome.trace.push({ step: 'cdr', detail: 'CDR sent to the call data webhook' });
}

/** An opt-out keyword from a sender not yet opted out makes an opt-out item; answers whether it was before. */
async function optOut(a: Arrival): Promise<boolean> {
  const { clock, ids } = a.work;
  const optedOutBefore = (await a.work.optoutItems.byPair(a.number.data.id, a.from)) !== undefined;
  const word = a.input.text.trim().toUpperCase();
  if (!OPT_OUT_KEYWORDS.includes(word) || optedOutBefore) return optedOutBefore;
  const now = clock.iso();
  const item = await a.work.optoutItems.insert({
    number_id: a.number.data.id,
    sms_id: a.message.id,
    data: {
      id: ids.uuid(),
      host_number: a.number.data.number,
      remote_number: a.from,
      keyword: word,
      inserted_at: now,
      updated_at: now,
    },
  });
  a.outcome.trace.push({
    step: 'opt_out',
    detail: `${a.from} opted out of ${a.number.data.number} with ${word}`,
    optout_item_id: item.data.id,
  });
  return false;
}

/** The number's auto response: a reply unless the sender opted out; answers whether the keyword intercepts. */
async function autoRespond(a: Arrival, optedOutBefore: boolean): Promise<boolean> {
  const { trace, outbound } = a.outcome;
  const id = a.number.auto_response_id;
  const auto = id ? await a.work.autoResponses.get(id) : undefined;
  const match = auto ? matchKeyword(auto.data.keywords, a.input.text) : undefined;
  if (!match) return false;
  if (optedOutBefore) {
    trace.push({
      step: 'auto_reply_suppressed',
      detail: `${a.from} has opted out of ${a.number.data.number}; no auto reply`,
    });
  } else if (match.message) {
    outbound.push({
      from: a.number.data.number,
      to: a.from,
      text: match.message,
      reason: `auto response ${match.keyword}`,
    });
    trace.push({
      step: 'auto_reply',
      detail: `keyword ${match.keyword} answered`,
      keyword: match.keyword,
      text: match.message,
    });
  }
  if (match.intercept)
    trace.push({ step: 'intercepted', detail: `keyword ${match.keyword} intercepts: not forwarded to the switch` });
  return match.intercept === true;
}

/** The number's switch, by its protocol for the message's kind. */
async function toSwitch(a: Arrival): Promise<void> {
  const { trace } = a.outcome;
  const sw = a.number.switch_id ? await a.work.switches.get(a.number.switch_id) : undefined;
  const enabled = a.kind === 'sms' ? sw?.data.sms_enabled : sw?.data.mms_enabled;
  const protocol = a.kind === 'sms' ? sw?.data.sms_protocol : sw?.data.mms_protocol;
  if (!sw || !enabled || !protocol || protocol === 'NONE') {
    const why = `the switch has ${a.kind.toUpperCase()} ${enabled ? 'protocol NONE' : 'disabled'}`;
    trace.push({ step: 'discarded', detail: sw ? why : 'the number has no switch' });
    return;
  }
  const options = a.kind === 'sms' ? sw.data.sms_options : sw.data.mms_options;
  if (options?.forward_dlr && isDeliveryReceipt(a.input.text)) {
    trace.push({
      step: 'dlr_dropped',
      detail: 'a delivery receipt, not delivered because the switch sets forward_dlr',
    });
    return;
  }
  const delivered = { ...a.message, from: options?.pad_shortcodes ? padShortCode(a.from) : a.from };
  const route = SWITCH_ROUTES[protocol];
  if (route && (a.kind === 'mms' || !MMS_ONLY.has(protocol))) {
    await route(a, sw, delivered, options?.dlr_on_sent ?? false);
    return;
  }
  trace.push({ step: protocol.toLowerCase(), detail: `handed to ${protocol}` });
}

/** How a message reaches a switch, by the switch's protocol for the message's kind. */
type SwitchRoute = (a: Arrival, sw: SwitchRow, delivered: Record<string, unknown>, dlrOnSent: boolean) => unknown;

const SWITCH_ROUTES: Partial<Record<string, SwitchRoute>> = {
  HTTP: toHttp,
  FORWARD: (a, sw) => forward(a, sw),
  SMPP: toSmpp,
  MM4: (a, sw, delivered) => toMm4(a, sw, delivered),
  SFTP: (a, sw, delivered) => toSftp(a, sw, delivered),
  SERVICE_CHAT: (a, _sw, delivered) => toChat(a, delivered),
};

/** The protocols that carry MMS only: an SMS to such a switch is handed over and traced, not sent. */
const MMS_ONLY = new Set(['MM4', 'SFTP']);

async function toHttp(a: Arrival, sw: SwitchRow, delivered: Record<string, unknown>, dlrOnSent: boolean) {
  const row = await a.work.outbox.deliver(a.kind, switchRequest(sw, a.kind, delivered), { retry: true });
  const dlr = dlrOnSent ? { from: a.number.data.number, to: a.from, text: `DLR ${a.message.id}: DELIVERED` } : null;
  a.outcome.switchDelivery = { id: row.data.id, protocol: 'HTTP', dlr };
}

/** SMPP: a deliver_sm to a receiving bind of the switch's API key, waiting for one if none is bound. */
async function toSmpp(a: Arrival, sw: SwitchRow, delivered: Record<string, unknown>, dlrOnSent: boolean) {
  const key = sw.api_key_id ? await a.work.apiKeys.get(sw.api_key_id) : undefined;
  const systemId = key?.data.smpp_system_id;
  if (!key || !systemId) {
    a.outcome.trace.push({ step: 'discarded', detail: 'the switch has SMPP but no API key to bind with' });
    return;
  }
  const message = {
    key_id: key.data.id,
    system_id: systemId,
    source_addr: String(delivered.from),
    destination_addr: a.number.data.number,
    text: a.input.text,
  };
  const request = {
    method: 'SMPP' as const,
    url: `smpp://${systemId}`,
    headers: {},
    body: a.input.text,
    smpp: message,
  };
  const row = await a.work.outbox.deliver(a.kind, request, { retry: true });
  a.outcome.trace.push({ step: 'smpp', detail: `queued for an SMPP bind of system id ${systemId}` });
  const dlr = dlrOnSent ? { from: a.number.data.number, to: a.from, text: `DLR ${a.message.id}: DELIVERED` } : null;
  a.outcome.switchDelivery = { id: row.data.id, protocol: 'SMPP', dlr };
}

/** MM4: an MM4_forward.REQ to the relay of `mms_data`, with SMTP AUTH when the switch has BASIC credentials. */
async function toMm4(a: Arrival, sw: SwitchRow, delivered: Record<string, unknown>) {
  const basic = sw.data.mms_auth_method === 'BASIC';
  const message = {
    url: sw.data.mms_data ?? '',
    message_id: a.message.id,
    date: String(a.message.received_at),
    from: String(delivered.from),
    to: a.number.data.number,
    text: a.input.text,
    media_urls: a.input.media_urls ?? [],
    username: basic ? (sw.data.mms_identity ?? null) : null,
    password: basic ? (sw.secrets.mms_secret ?? null) : null,
    display_name: sw.data.mms_name ?? null,
  };
  const request = { method: 'MM4' as const, url: message.url, headers: {}, body: a.input.text, mm4: message };
  const row = await a.work.outbox.deliver(a.kind, request, { retry: true });
  a.outcome.switchDelivery = { id: row.data.id, protocol: 'MM4', dlr: null };
}

/** SFTP: the message in its format, uploaded as a file to the path of `mms_data` (as bulk dip results are). */
async function toSftp(a: Arrival, sw: SwitchRow, delivered: Record<string, unknown>) {
  const rendered = switchRequest(sw, 'mms', delivered);
  const login = sftpLogin(sw.data.mms_auth_method, sw.data.mms_identity, sw.secrets.mms_secret);
  const request = {
    method: 'SFTP' as const,
    url: sw.data.mms_data ?? '',
    headers: {},
    body: rendered.body,
    // a format that carries its media is composed when sent, as over HTTP
    ...(rendered.compose ? { compose: rendered.compose } : {}),
    sftp: { ...login, filename: `mms-${a.message.id}.${extensionOf(sw.data.mms_message_format)}` },
  };
  const row = await a.work.outbox.deliver(a.kind, request, { retry: true });
  a.outcome.switchDelivery = { id: row.data.id, protocol: 'SFTP', dlr: null };
}

/**
 * SERVICE_CHAT: the platform's chat inbox, which dipswitch keeps as the delivery log's CHAT entries
 * (`GET /__sim/deliveries`, the dashboard's Deliveries): received at once, nothing leaves the process.
 */
async function toChat(a: Arrival, delivered: Record<string, unknown>) {
  const { clock } = a.work;
  const body = JSON.stringify({ type: a.kind, data: delivered });
  const request = { method: 'CHAT' as const, url: 'chat://platform', headers: {}, body };
  const row = await a.work.outbox.deliver(a.kind, request, { retry: false, now: true });
  await a.work.deliveries.update(row, (d) => {
    d.data.attempts.push({ at: clock.iso(), status: null, error: null, duration_ms: 0 });
    d.data.outcome = 'delivered';
    d.data.next_attempt_at = null;
  });
  a.outcome.trace.push({ step: 'service_chat', detail: `in the platform chat inbox (delivery ${row.data.id})` });
}

/** FORWARD: a new outbound message to the switch's number. */
function forward(a: Arrival, sw: SwitchRow): void {
  const target = toE164((a.kind === 'sms' ? sw.data.sms_data : sw.data.mms_data) ?? '');
  a.outcome.outbound.push({
    from: a.number.data.number,
    to: target,
    text: a.input.text,
    reason: 'FORWARD (a new OUTBOUND message; charges apply)',
  });
  a.outcome.trace.push({ step: 'forwarded', detail: `forwarded to ${target} as a new outbound message` });
}

/** Finishes the trace once the switch's delivery ran (its first attempt). */
export function finishSmsTrace(
  outcome: SmsOutcome,
  delivery: DeliveryRow | undefined,
): Omit<SmsOutcome, 'switchDelivery'> {
  const { switchDelivery, ...rest } = outcome;
  if (!switchDelivery) return rest;
  const attempt = delivery?.data.attempts[0];
  const ok = delivery?.data.outcome === 'delivered';
  const waiting = delivery?.data.outcome === 'waiting';
  const pending = delivery?.data.outcome === 'pending';
  const answered = { HTTP: 'answered', SMPP: 'deliver_sm answered', MM4: 'the relay answered', SFTP: 'uploaded' }[
    switchDelivery.protocol
  ];
  rest.trace.push({
    step: `switch_${switchDelivery.protocol.toLowerCase()}`,
    detail: ok
      ? `delivered, ${answered} ${attempt?.status}`
      : waiting
        ? 'no bind of the key: waiting for one'
        : pending
          ? `pending: its first attempt is still under way and goes on in the background; wait for its outcome with POST /__sim/deliveries/verify (a client's waitFor), id ${delivery?.data.id}`
          : 'delivery failed; retrying on the clock',
    status: ok ? (attempt?.status ?? null) : null,
  });
  if (ok && switchDelivery.dlr) {
    rest.outbound.push({ ...switchDelivery.dlr, reason: 'dlr_on_sent' });
    rest.trace.push({ step: 'dlr', detail: 'delivery receipt sent back to the sender (dlr_on_sent)' });
  }
  return rest;
}
