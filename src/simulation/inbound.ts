/**
 * Simulated inbound traffic (interface.md section 7): an SMS or MMS through opt-out keywords, the
 * number's auto response and its switch; a call through the number's destinations by priority,
 * HTTP route callbacks included, and the switch's voice settings as the fallback.
 */
import { createHmac } from 'node:crypto';
import { toE164 } from '../domain/addresses.js';
import { matchKeyword } from '../domain/keywords.js';
import { invalidField } from '../domain/errors.js';
import type { DeliveryRow, DestinationRow, NumberRow, OutboundSpec, SwitchRow } from '../store/rows.js';
import type { UnitOfWork } from '../store/store.js';
import type { OutboundResponse } from '../engine/transport/http_client.js';
import { authGap, authHeader } from '../engine/outbox.js';
import type { Work } from '../engine/work.js';

/** Spec (glossary): the keywords that opt a subscriber out. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];

export interface TraceStep {
  step: string;
  detail: string;
  [more: string]: unknown;
}

async function findNumber(work: { store: UnitOfWork }, accountId: string, to: string): Promise<NumberRow> {
  const number = await work.store.numbers.byNumber(accountId, toE164(to));
  if (!number) throw invalidField('/to', `${toE164(to)} is not a number of this account.`);
  return number;
}

/** A delivery receipt in the usual SMPP text form: `id:… sub:… dlvrd:… submit date:… done date:… stat:…`. */
export const isDeliveryReceipt = (text: string): boolean => /^id:\S+ .*\bstat:[A-Z]+/i.test(text.trim());

/** Spec (switch options): pads a short code with leading zeroes to 11 digits. */
const padShortCode = (from: string): string => (/^\d{5,6}$/.test(from) ? from.padStart(11, '0') : from);

/** The HTTP request a switch's endpoint receives for an inbound message (interface.md section 8). */
export function switchRequest(sw: SwitchRow, kind: 'sms' | 'mms', message: Record<string, unknown>): OutboundSpec {
  const s = sw.data;
  const format = kind === 'sms' ? s.sms_message_format : s.mms_message_format;
  const url = (kind === 'sms' ? s.sms_data : s.mms_data) ?? '';
  const form = format === 'SMSFMT_POST_1_0' || format === 'SMSFMT_POST_2_0';
  const body = form
    ? new URLSearchParams(
        Object.entries(message).flatMap(([k, v]) =>
          Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]],
        ),
      ).toString()
    : JSON.stringify({ type: kind, data: message });
  const method = kind === 'sms' ? s.sms_auth_method : s.mms_auth_method;
  const identity = kind === 'sms' ? s.sms_identity : s.mms_identity;
  const secret = kind === 'sms' ? sw.secrets.sms_secret : sw.secrets.mms_secret;
  const auth =
    method === 'HMAC_SHA256' && secret
      ? {
          authorization: `SERVICE0-HMAC-SHA256 ${createHmac('sha256', secret ?? '')
            .update(body)
            .digest('hex')}`,
        }
      : authHeader(method, identity, secret);
  return {
    method: 'POST',
    url,
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...auth },
    body,
    note: authGap(method, identity, secret)?.replace('auth method', `${kind}_auth_method`) ?? null,
  };
}

export interface SmsOutcome {
  message: Record<string, unknown>;
  trace: TraceStep[];
  outbound: { from: string; to: string; text: string; reason: string }[];
  /** The delivery to the switch, to be finished once it ran: its trace step and the receipt it may send. */
  switchDelivery?: { id: string; dlr: { from: string; to: string; text: string } | null };
}

/** An SMS or MMS arrives at one of the account's numbers (inside the account's unit of work). */
export async function receiveSms(
  work: Work,
  input: { to: string; from: string; text: string; media_urls?: readonly string[] },
): Promise<SmsOutcome> {
  const { store, clock, ids, sim, accountId } = work;
  const number = await findNumber(work, accountId, input.to);
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
  const outbound: SmsOutcome['outbound'] = [];
  const done = (): SmsOutcome => ({ message, trace, outbound });

  if (
    await sim.cdr(kind === 'mms' ? 'MMS' : 'SMS', {
      from,
      to: number.data.number,
      message_id: message.id,
      direction: 'INBOUND',
    })
  ) {
    trace.push({ step: 'cdr', detail: 'CDR sent to the call data webhook' });
  }

  const optedOutBefore = (await store.optoutItems.byPair(number.data.id, from)) !== undefined;
  const word = input.text.trim().toUpperCase();
  if (OPT_OUT_KEYWORDS.includes(word) && !optedOutBefore) {
    const now = clock.iso();
    const item = await store.optoutItems.insert({
      account_id: accountId,
      number_id: number.data.id,
      sms_id: message.id,
      data: {
        id: ids.uuid(),
        host_number: number.data.number,
        remote_number: from,
        keyword: word,
        inserted_at: now,
        updated_at: now,
      },
    });
    trace.push({
      step: 'opt_out',
      detail: `${from} opted out of ${number.data.number} with ${word}`,
      optout_item_id: item.data.id,
    });
  }

  const auto = number.auto_response_id ? await store.autoResponses.get(accountId, number.auto_response_id) : undefined;
  const match = auto ? matchKeyword(auto.data.keywords, input.text) : undefined;
  if (match) {
    if (optedOutBefore) {
      trace.push({
        step: 'auto_reply_suppressed',
        detail: `${from} has opted out of ${number.data.number}; no auto reply`,
      });
    } else if (match.message) {
      outbound.push({
        from: number.data.number,
        to: from,
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
    if (match.intercept) {
      trace.push({ step: 'intercepted', detail: `keyword ${match.keyword} intercepts: not forwarded to the switch` });
      return done();
    }
  }

  const sw = number.switch_id ? await store.switches.get(accountId, number.switch_id) : undefined;
  const enabled = kind === 'sms' ? sw?.data.sms_enabled : sw?.data.mms_enabled;
  const protocol = kind === 'sms' ? sw?.data.sms_protocol : sw?.data.mms_protocol;
  if (!sw || !enabled || !protocol || protocol === 'NONE') {
    trace.push({
      step: 'discarded',
      detail: sw
        ? `the switch has ${kind.toUpperCase()} ${enabled ? 'protocol NONE' : 'disabled'}`
        : 'the number has no switch',
    });
    return done();
  }
  const options = kind === 'sms' ? sw.data.sms_options : sw.data.mms_options;
  if (options?.forward_dlr && isDeliveryReceipt(input.text)) {
    trace.push({
      step: 'dlr_dropped',
      detail: 'a delivery receipt, not delivered because the switch sets forward_dlr',
    });
    return done();
  }
  const delivered = { ...message, from: options?.pad_shortcodes ? padShortCode(from) : from };
  if (protocol === 'HTTP') {
    const row = await sim.deliver('sms', switchRequest(sw, kind, delivered), { retry: true });
    const dlr = options?.dlr_on_sent
      ? { from: number.data.number, to: from, text: `DLR ${message.id}: DELIVERED` }
      : null;
    return { ...done(), switchDelivery: { id: row.data.id, dlr } };
  }
  if (protocol === 'FORWARD') {
    const target = toE164((kind === 'sms' ? sw.data.sms_data : sw.data.mms_data) ?? '');
    outbound.push({
      from: number.data.number,
      to: target,
      text: input.text,
      reason: 'FORWARD (a new OUTBOUND message; charges apply)',
    });
    trace.push({ step: 'forwarded', detail: `forwarded to ${target} as a new outbound message` });
  } else if (protocol === 'SMPP') {
    const key = sw.api_key_id ? await store.apiKeys.get(accountId, sw.api_key_id) : undefined;
    trace.push({
      step: 'smpp',
      detail: `queued for the SMPP bind of system id ${key?.data.smpp_system_id ?? '(none)'}`,
    });
  } else {
    trace.push({ step: protocol.toLowerCase(), detail: `handed to ${protocol}` });
  }
  return done();
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
  rest.trace.push({
    step: 'switch_http',
    detail: ok ? `delivered, answered ${attempt?.status}` : 'delivery failed; retrying on the clock',
    status: ok ? (attempt?.status ?? null) : null,
  });
  if (ok && switchDelivery.dlr) {
    rest.outbound.push({ ...switchDelivery.dlr, reason: 'dlr_on_sent' });
    rest.trace.push({ step: 'dlr', detail: 'delivery receipt sent back to the sender (dlr_on_sent)' });
  }
  return rest;
}

export interface CallDecision {
  type: string;
  data: string | null;
  source: 'destination' | 'switch' | 'none';
  destination_id?: string;
}

const BUSY = /^(busy|unreachable)@/i;

/** Parses an HTTP route reply (spec: HTTP route callback): text/plain TYPE:DATA or JSON http_route_response. */
export function parseRouteReply(status: number, contentType: string, body: string): { type: string; data: string } {
  const skip = { type: 'SKIP', data: '' };
  if (status !== 200) return skip;
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/plain') {
    const i = body.indexOf(':');
    return i > 0 ? { type: body.slice(0, i).trim().toUpperCase(), data: body.slice(i + 1).trim() } : skip;
  }
  if (type === 'application/json') {
    try {
      const json = JSON.parse(body) as { type?: string; data?: { type?: string; data?: unknown } };
      if (json.type !== 'http_route_response' || typeof json.data?.type !== 'string') return skip;
      return { type: json.data.type.toUpperCase(), data: String(json.data.data ?? '') };
    } catch {
      return skip;
    }
  }
  return skip;
}

const ROUTE_TYPES = ['SKIP', 'PSTN', 'VOIP', 'TTS', 'TTS_CUSTOM', 'TTS_MESSAGE_SET'];

/** What routing a call needs: reads of the account, and a route callback sent now and logged. */
export interface CallEnv {
  work: Work;
  /** Sends an HTTP route callback now (GET with a JSON body) and logs it; null when it failed. */
  route(request: OutboundSpec): Promise<OutboundResponse | null>;
}

export async function routeCall(env: CallEnv, input: { to: string; from: string }) {
  const { store, clock, ids, random, accountId } = env.work;
  const number = await findNumber(env.work, accountId, input.to);
  const call = {
    id: ids.ulid(),
    inserted_at: clock.iso(),
    from: toE164(input.from),
    to: number.data.number,
    direction: 'INCOMING',
  };
  const steps: TraceStep[] = [];
  const charges: string[] = [];
  // spec: equal priorities are randomized (seeded, so a run repeats)
  const destinations = (await store.destinations.ofNumber(number.data.id))
    .filter((d) => d.data.activated)
    .map((d) => ({ d, tie: random.float() }))
    .sort((a, b) => a.d.data.priority - b.d.data.priority || a.tie - b.tie)
    .map(({ d }) => d);

  const connect = (
    type: string,
    data: string | null,
    source: CallDecision['source'],
    id?: string,
  ): CallDecision | null => {
    if (type === 'VOIP' && data && BUSY.test(data)) {
      steps.push({ step: 'voip', detail: `${data} did not answer` });
      return null;
    }
    if (type === 'PSTN') charges.push(`PSTN forwarding to ${data}: incoming and outgoing leg`);
    if (type === 'TTS_CUSTOM') charges.push(`TTS_CUSTOM: ${(data ?? '').length} characters`);
    steps.push({ step: type.toLowerCase(), detail: `connected: ${type} ${data ?? ''}`.trim() });
    return { type, data, source, ...(id ? { destination_id: id } : {}) };
  };

  const httpRoute = async (
    url: string,
    auth: { method: string | undefined; identity: string | null | undefined; secret: string | null | undefined },
  ): Promise<{ type: string; data: string }> => {
    const res = await env.route({
      method: 'GET',
      url,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/plain',
        ...authHeader(auth.method, auth.identity, auth.secret),
      },
      body: JSON.stringify(call),
      note: authGap(auth.method, auth.identity, auth.secret),
    });
    const reply = res
      ? parseRouteReply(res.status, res.headers['content-type'] ?? '', res.body)
      : { type: 'SKIP', data: '' };
    const known = ROUTE_TYPES.includes(reply.type) ? reply : { type: 'SKIP', data: '' };
    steps.push({
      step: 'http_route',
      detail: `${url} answered ${known.type}${known.data ? `:${known.data}` : ''}`,
      status: res?.status ?? null,
    });
    return known;
  };

  const tryDestination = async (d: DestinationRow): Promise<CallDecision | null> => {
    if (d.data.type !== 'HTTP_ROUTE') {
      const data = d.data.type === 'TTS_MESSAGE_SET' ? (d.data.tts_message_set_id ?? null) : d.data.destination;
      return connect(d.data.type, data, 'destination', d.data.id);
    }
    const reply = await httpRoute(d.data.destination, {
      method: d.data.auth_method,
      identity: d.data.auth_identity,
      secret: d.auth_secret,
    });
    return reply.type === 'SKIP' ? null : connect(reply.type, reply.data, 'destination', d.data.id);
  };

  let decision: CallDecision | null = null;
  for (const d of destinations) {
    decision = await tryDestination(d);
    if (decision) break;
  }
  if (!decision) {
    const sw = number.switch_id ? await store.switches.get(accountId, number.switch_id) : undefined;
    if (sw?.data.voice_enabled && sw.data.voice_protocol !== 'NONE') {
      steps.push({ step: 'fallback', detail: `the switch's voice settings (${sw.data.voice_protocol})` });
      if (sw.data.voice_protocol === 'HTTP_ROUTE') {
        const reply = await httpRoute(sw.data.voice_data ?? '', {
          method: sw.data.voice_auth_method,
          identity: sw.data.voice_identity,
          secret: sw.secrets.voice_secret,
        });
        decision = reply.type === 'SKIP' ? null : connect(reply.type, reply.data, 'switch');
      } else {
        decision = connect(sw.data.voice_protocol, sw.data.voice_data ?? null, 'switch');
      }
    }
  }
  decision ??= { type: 'NONE', data: null, source: 'none' };
  if (decision.source === 'none')
    steps.push({ step: 'unrouted', detail: 'no destination answered and the switch has no voice fallback' });
  return { call, decision, steps, charges };
}
