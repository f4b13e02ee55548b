/**
 * An inbound call (interface.md section 7): through the number's activated destinations by
 * priority, HTTP route callbacks included, and the switch's voice settings as the fallback.
 */
import { toE164 } from '../../domain/addresses.js';
import type { DestinationRow, OutboundSpec, SwitchRow } from '../../domain/rows.js';
import type { OutboundResponse } from '../../engine/transport/http_client.js';
import { authGap, authHeader } from '../outbound.js';
import type { Work } from '../../engine/work.js';
import { findNumber, type TraceStep } from './common.js';
import { parseJson } from '../../domain/json.js';

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
    // an answer that is not JSON says no route: the call goes on as if none came
    const json = parseJson(body) as { type?: string; data?: { type?: string; data?: unknown } } | undefined;
    if (json?.type !== 'http_route_response' || typeof json.data?.type !== 'string') return skip;
    return { type: json.data.type.toUpperCase(), data: String(json.data.data ?? '') };
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

type RouteAuth = { method: string | undefined; identity: string | null | undefined; secret: string | null | undefined };
type Call = { id: string; inserted_at: string; from: string; to: string; direction: string };

/** One call's routing: the steps it took and the charges it would incur. */
class Routing {
  readonly steps: TraceStep[] = [];
  readonly charges: string[] = [];
  constructor(
    private readonly env: CallEnv,
    private readonly call: Call,
  ) {}

  /** Connects the call, unless a VOIP target is busy or unreachable. */
  connect(type: string, data: string | null, source: CallDecision['source'], id?: string): CallDecision | null {
    if (type === 'VOIP' && data && BUSY.test(data)) {
      this.steps.push({ step: 'voip', detail: `${data} did not answer` });
      return null;
    }
    if (type === 'PSTN') this.charges.push(`PSTN forwarding to ${data}: incoming and outgoing leg`);
    if (type === 'TTS_CUSTOM') this.charges.push(`TTS_CUSTOM: ${(data ?? '').length} characters`);
    this.steps.push({ step: type.toLowerCase(), detail: `connected: ${type} ${data ?? ''}`.trim() });
    return { type, data, source, ...(id ? { destination_id: id } : {}) };
  }

  /** Asks an HTTP route callback where the call goes (GET with the call as a JSON body). */
  async httpRoute(url: string, auth: RouteAuth): Promise<{ type: string; data: string }> {
    const res = await this.env.route({
      method: 'GET',
      url,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/plain',
        ...authHeader(auth.method, auth.identity, auth.secret),
      },
      body: JSON.stringify(this.call),
      note: authGap(auth.method, auth.identity, auth.secret),
    });
    const reply = res
      ? parseRouteReply(res.status, res.headers['content-type'] ?? '', res.body)
      : { type: 'SKIP', data: '' };
    const known = ROUTE_TYPES.includes(reply.type) ? reply : { type: 'SKIP', data: '' };
    this.steps.push({
      step: 'http_route',
      detail: `${url} answered ${known.type}${known.data ? `:${known.data}` : ''}`,
      status: res?.status ?? null,
    });
    return known;
  }

  async destination(d: DestinationRow): Promise<CallDecision | null> {
    if (d.data.type !== 'HTTP_ROUTE') {
      const data = d.data.type === 'TTS_MESSAGE_SET' ? (d.data.tts_message_set_id ?? null) : d.data.destination;
      return this.connect(d.data.type, data, 'destination', d.data.id);
    }
    const reply = await this.httpRoute(d.data.destination, {
      method: d.data.auth_method,
      identity: d.data.auth_identity,
      secret: d.auth_secret,
    });
    return reply.type === 'SKIP' ? null : this.connect(reply.type, reply.data, 'destination', d.data.id);
  }

  /** The switch's voice settings, when no destination took the call. */
  async fallback(sw: SwitchRow | undefined): Promise<CallDecision | null> {
    if (!sw?.data.voice_enabled || sw.data.voice_protocol === 'NONE') return null;
    this.steps.push({ step: 'fallback', detail: `the switch's voice settings (${sw.data.voice_protocol})` });
    if (sw.data.voice_protocol !== 'HTTP_ROUTE')
      return this.connect(sw.data.voice_protocol, sw.data.voice_data ?? null, 'switch');
    const reply = await this.httpRoute(sw.data.voice_data ?? '', {
      method: sw.data.voice_auth_method,
      identity: sw.data.voice_identity,
      secret: sw.secrets.voice_secret,
    });
    return reply.type === 'SKIP' ? null : this.connect(reply.type, reply.data, 'switch');
  }
}

export async function routeCall(env: CallEnv, input: { to: string; from: string }) {
  const { clock, ids, random } = env.work;
  const number = await findNumber(env.work, input.to);
  const call = {
    id: ids.ulid(),
    inserted_at: clock.iso(),
    from: toE164(input.from),
    to: number.data.number,
    direction: 'INCOMING',
  };
  const routing = new Routing(env, call);
  // spec: equal priorities are randomized (seeded, so a run repeats)
  const destinations = (await env.work.destinations.ofNumber(number.data.id))
    .filter((d) => d.data.activated)
    .map((d) => ({ d, tie: random.float() }))
    .sort((a, b) => a.d.data.priority - b.d.data.priority || a.tie - b.tie)
    .map(({ d }) => d);
  let decision: CallDecision | null = null;
  for (const d of destinations) {
    decision = await routing.destination(d);
    if (decision) break;
  }
  if (!decision) {
    const sw = number.switch_id ? await env.work.switches.get(number.switch_id) : undefined;
    decision = await routing.fallback(sw);
  }
  decision ??= { type: 'NONE', data: null, source: 'none' };
  if (decision.source === 'none')
    routing.steps.push({ step: 'unrouted', detail: 'no destination answered and the switch has no voice fallback' });
  return { call, decision, steps: routing.steps, charges: routing.charges };
}
