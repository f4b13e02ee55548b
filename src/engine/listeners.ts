/**
 * Listeners (`dipswitch listen`, GET /__sim/listen): an account's HTTP deliveries sent over a live
 * stream to a developer's machine, each answered back (POST /__sim/listen/answers) with what the
 * local receiver said. Over a shared store a listener is connected to one instance while another
 * makes the attempt: the instances tell each other over the peers channel who listens (`present`),
 * hand an attempt to the instance holding the listener (`send`, which makes the request again from
 * the stored delivery) and hand back what was heard (`heard`), or an answer posted elsewhere (`answer`).
 */
import { DomainError } from '../domain/errors.js';
import type { components } from '../generated/sim.js';
import type { Peers } from '../store/store.js';
import { parseJson } from '../domain/json.js';
import { lostWith, type Warn } from '../domain/side_paths.js';

/** Listeners one account may have connected, over every instance. */
export const LISTENERS_PER_ACCOUNT = 5;
/** Deliveries a listener may have unanswered at once; one more is an attempt that failed. */
export const LISTENER_IN_FLIGHT = 20;
/** How long an attempt waits for a listener's answer. */
export const LISTEN_ANSWER_MS = 10_000;
/** How often a listener's key is checked (revoked, deactivated, its account removed: the stream closes). */
const CHECK_MS = 1_000;
/** How often an instance tells the others whom it has listening; a silent instance's are forgotten after PRESENCE_TTL_MS. */
const PRESENCE_MS = 10_000;
const PRESENCE_TTL_MS = 35_000;
/** Of an answer handed between instances (a notification holds 8,000 bytes), the body's first this many characters. */
const RELAYED_BODY = 4_000;

export type ListenedDelivery = components['schemas']['listened_delivery'];
export type ListenerAnswer = components['schemas']['listener_answer'];
type ListenerShown = components['schemas']['listener'];

/** A request as a listener receives it, before it has an attempt's id. */
export type ListenedRequest = Omit<ListenedDelivery, 'id' | 'body_base64'> & { body: Buffer };

/** What one listener made of an attempt: the local receiver's answer, or why there was none. */
export interface Heard {
  listener: string;
  status: number | null;
  headers: Record<string, string>;
  body: string;
  error: string | null;
}

/** A listener's live answer (what src/http/stream.ts hands over): false from `write` once it ended. */
export interface StreamWriter {
  write(chunk: string): boolean;
  onClose(fn: () => void): void;
  end(): void;
}

/** A listener as the instances know it. */
interface Seen {
  id: string;
  name: string;
  all: boolean;
}

interface Local extends Seen {
  accountId: string;
  authorization: string | undefined;
  out: StreamWriter;
  pending: Map<string, (heard: Omit<Heard, 'listener'>) => void>;
}

type Message =
  | { kind: 'present'; instance: string; account: string; listeners: Seen[] }
  | { kind: 'ask'; instance: string }
  | {
      kind: 'send';
      relay: string;
      to: string;
      from: string;
      account: string;
      delivery: string;
      target: string;
      /** The attempt's span (docs/observability.md), which the request made here carries. */
      traceparent?: string;
    }
  | { kind: 'heard'; relay: string; to: string; heard: Heard[] }
  | { kind: 'answer'; account: string; answer: ListenerAnswer };

/**
 * The NAME of a listener's target, `http(s)://NAME.listen.invalid/...` (RFC 6761's `.invalid` never
 * resolves: no real receiver has that address); null for any other.
 */
export function listenName(target: string): string | null {
  return (
    /^https?:\/\/([a-z0-9][a-z0-9-]{0,62})\.listen\.invalid\.?(?::\d+)?(?:[/?#]|$)/i.exec(target)?.[1]?.toLowerCase() ??
    null
  );
}

const listensTo = (l: Seen, target: string): boolean => l.all || listenName(target) === l.name;

const failed = (error: string): Omit<Heard, 'listener'> => ({ status: null, headers: {}, body: '', error });

/**
 * What of an answer goes between instances (a notification holds 8,000 bytes): its body's first
 * RELAYED_BODY characters and its content type, which decides how the body is read (a route callback's
 * `text/plain` decision, a JSON one).
 */
function toRelay<A extends { body: string; headers: Record<string, string> }>(answer: A): A {
  const type = answer.headers['content-type'];
  return {
    ...answer,
    body: answer.body.slice(0, RELAYED_BODY),
    headers: type === undefined ? {} : { 'content-type': type },
  };
}

export interface ListenersOptions {
  instance: string;
  peers?: Peers;
  /** Ids of attempts and relays. */
  id(): string;
  /** The wall clock in ms (when another instance was last heard of). */
  wall(): number;
  /** Where a failure nothing waits for is said. */
  warn: Warn;
  /** Whether a listener's Authorization still names an active key of an account. */
  admits(authorization: string): Promise<boolean>;
  /** The request of a stored delivery, made again here for an attempt another instance hands over. */
  request?(accountId: string, deliveryId: string): Promise<ListenedRequest | undefined>;
}

export class Listeners {
  private readonly local = new Map<string, Local>();
  /** The listeners of other instances: by instance, by account, with when they were told. */
  private readonly remote = new Map<string, Map<string, { at: number; listeners: Seen[] }>>();
  private readonly relays = new Map<string, (heard: Heard[]) => void>();
  private timer: NodeJS.Timeout | undefined;
  private sinceAnnounced = 0;

  constructor(private readonly opts: ListenersOptions) {
    opts.peers?.hear('listeners', (payload) => this.heard(payload));
    opts.peers?.tell('listeners', JSON.stringify({ kind: 'ask', instance: opts.instance } satisfies Message));
  }

  /** The listeners of an account, here and on the other instances. */
  private of(accountId: string): { here: Local[]; there: [string, Seen[]][] } {
    const here = [...this.local.values()].filter((l) => l.accountId === accountId);
    const now = this.opts.wall();
    const there: [string, Seen[]][] = [];
    for (const [instance, accounts] of this.remote) {
      const told = accounts.get(accountId);
      if (told && now - told.at < PRESENCE_TTL_MS && told.listeners.length) there.push([instance, told.listeners]);
    }
    return { here, there };
  }

  /** The listeners connected now, of one account or of all: here, and those the other instances told of. */
  list(accountId?: string): ListenerShown[] {
    const now = this.opts.wall();
    const here = [...this.local.values()].map((l) => ({
      id: l.id,
      name: l.name,
      all: l.all,
      account_id: l.accountId,
      here: true,
    }));
    const there = [...this.remote.values()].flatMap((accounts) =>
      [...accounts].flatMap(([account_id, told]) =>
        now - told.at < PRESENCE_TTL_MS ? told.listeners.map((l) => ({ ...l, account_id, here: false })) : [],
      ),
    );
    return [...here, ...there].filter((l) => accountId === undefined || l.account_id === accountId);
  }

  /** Whether an attempt of this account's delivery to `target` goes to a listener rather than to the target. */
  routes(accountId: string, target: string): boolean {
    if (listenName(target) !== null) return true;
    const { here, there } = this.of(accountId);
    return here.some((l) => l.all) || there.some(([, ls]) => ls.some((l) => l.all));
  }

  /**
   * A listener of the account, once its stream is open (the function answered, given the stream's
   * writer); refused when the account has LISTENERS_PER_ACCOUNT, over every instance: over a shared store
   * the listener takes one of the account's slots under its lock (Peers.slots), so two instances opening
   * the last one at once cannot both have it.
   */
  async open(
    accountId: string,
    seen: Omit<Seen, 'id'>,
    authorization: string | undefined,
  ): Promise<(out: StreamWriter) => void> {
    const { here, there } = this.of(accountId);
    const full = () =>
      new DomainError('limit_reached', [
        { detail: `The account has ${LISTENERS_PER_ACCOUNT} listeners connected; stop one before starting another.` },
      ]);
    if (here.length + there.reduce((n, [, ls]) => n + ls.length, 0) >= LISTENERS_PER_ACCOUNT) throw full();
    const id = this.opts.id();
    const slots = this.opts.peers?.slots;
    if (slots && !(await slots.take('listener', accountId, id, LISTENERS_PER_ACCOUNT, PRESENCE_TTL_MS))) throw full();
    return (out) => {
      const listener: Local = { ...seen, id, accountId, authorization, out, pending: new Map() };
      this.local.set(listener.id, listener);
      out.onClose(() => this.gone(listener));
      const shown = { id: listener.id, name: seen.name, all: seen.all, account_id: accountId };
      out.write(`event: listening\ndata: ${JSON.stringify(shown)}\n\n`);
      this.announce(accountId);
      this.tick();
    };
  }

  private gone(listener: Local): void {
    if (!this.local.delete(listener.id)) return;
    this.opts.peers?.slots
      .give(listener.id)
      .catch(lostWith(this.opts.warn, `listener ${listener.id}'s slot (it lapses)`));
    for (const done of [...listener.pending.values()]) done(failed('the listener went away'));
    this.announce(listener.accountId);
  }

  /**
   * One attempt sent to every listener of the account that takes `request.target` (here, and on the
   * other instances through theirs): what each made of it; none when no listener takes it.
   */
  async send(accountId: string, request: ListenedRequest): Promise<Heard[]> {
    const { here, there } = this.of(accountId);
    const local = here.filter((l) => listensTo(l, request.target)).map((l) => this.sendHere(l, request));
    const relayed = there
      .filter(([, ls]) => ls.some((l) => listensTo(l, request.target)))
      .map(([instance]) => this.relay(instance, accountId, request));
    return [...(await Promise.all(local)), ...(await Promise.all(relayed)).flat()];
  }

  private sendHere(l: Local, request: ListenedRequest): Promise<Heard> {
    if (l.pending.size >= LISTENER_IN_FLIGHT)
      return Promise.resolve({ listener: l.name, ...failed(`${LISTENER_IN_FLIGHT} deliveries are in flight to it`) });
    const id = this.opts.id();
    const { body, ...rest } = request;
    const event: ListenedDelivery = { id, ...rest, body_base64: body.toString('base64') };
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(failed(`no answer within ${LISTEN_ANSWER_MS / 1000} s`)), LISTEN_ANSWER_MS);
      const done = (heard: Omit<Heard, 'listener'>) => {
        clearTimeout(timer);
        l.pending.delete(id);
        resolve({ listener: l.name, ...heard });
      };
      l.pending.set(id, done);
      if (!l.out.write(`event: delivery\nid: ${id}\ndata: ${JSON.stringify(event)}\n\n`))
        done(failed('the listener went away'));
    });
  }

  /** An attempt handed to another instance, whose listeners make it; what they heard, or a failure in time. */
  private relay(instance: string, accountId: string, request: ListenedRequest): Promise<Heard[]> {
    const relay = this.opts.id();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.relays.delete(relay);
        resolve([{ listener: `(on ${instance})`, ...failed(`no answer within ${LISTEN_ANSWER_MS / 1000} s`) }]);
      }, LISTEN_ANSWER_MS + 1_000);
      this.relays.set(relay, (heard) => {
        clearTimeout(timer);
        this.relays.delete(relay);
        resolve(heard);
      });
      this.tell({
        kind: 'send',
        relay,
        to: instance,
        from: this.opts.instance,
        account: accountId,
        delivery: request.delivery_id,
        target: request.target,
        ...(request.headers.traceparent ? { traceparent: request.headers.traceparent } : {}),
      });
    });
  }

  /** A listener's answer: taken by the attempt waiting for it here, or handed to the other instances. */
  answer(accountId: string, answer: ListenerAnswer, relayed = false): void {
    const waiting = [...this.local.values()].find((l) => l.accountId === accountId && l.pending.has(answer.id));
    const done = waiting?.pending.get(answer.id);
    if (done) {
      const status = answer.status ?? null;
      done({ status, headers: answer.headers ?? {}, body: answer.body ?? '', error: answer.error ?? null });
    } else if (!relayed) {
      const { body, headers } = toRelay({ body: answer.body ?? '', headers: answer.headers ?? {} });
      this.tell({ kind: 'answer', account: accountId, answer: { ...answer, body, headers } });
    }
  }

  private heard(payload: string): void {
    const m = parseJson(payload) as Message | undefined;
    // not a message of this version: ignored, as the peers channel ignores one that is not JSON
    if (m === undefined) return;
    if (m.kind === 'present') {
      const accounts = this.remote.get(m.instance) ?? new Map<string, { at: number; listeners: Seen[] }>();
      accounts.set(m.account, { at: this.opts.wall(), listeners: m.listeners });
      this.remote.set(m.instance, accounts);
    } else if (m.kind === 'ask') {
      for (const account of new Set([...this.local.values()].map((l) => l.accountId))) this.announce(account);
    } else if (m.kind === 'send' && m.to === this.opts.instance) void this.sendFor(m);
    else if (m.kind === 'heard' && m.to === this.opts.instance) this.relays.get(m.relay)?.(m.heard);
    else if (m.kind === 'answer') this.answer(m.account, m.answer, true);
  }

  /** An attempt another instance handed over: made here from the stored delivery, sent to the listeners here. */
  private async sendFor(m: Extract<Message, { kind: 'send' }>): Promise<void> {
    let heard: Heard[];
    try {
      const made = await this.opts.request?.(m.account, m.delivery);
      if (!made) throw new Error('it is gone');
      // the target as the instance that handed it over saw it
      const traced = m.traceparent ? { ...made.headers, traceparent: m.traceparent } : made.headers;
      const request = { ...made, target: m.target, headers: traced };
      const takers = [...this.local.values()].filter((l) => l.accountId === m.account && listensTo(l, m.target));
      heard = await Promise.all(takers.map((l) => this.sendHere(l, request)));
    } catch (e) {
      // the store away, or the delivery gone: the attempt's error in the delivery log says so
      heard = [{ listener: '', ...failed(`the delivery could not be read here (${(e as Error).message})`) }];
    }
    this.tell({ kind: 'heard', relay: m.relay, to: m.from, heard: heard.map(toRelay) });
  }

  private announce(accountId: string): void {
    const listeners = [...this.local.values()]
      .filter((l) => l.accountId === accountId)
      .map(({ id, name, all }) => ({ id, name, all }));
    this.tell({ kind: 'present', instance: this.opts.instance, account: accountId, listeners });
  }

  private tell(m: Message): void {
    this.opts.peers?.tell('listeners', JSON.stringify(m));
  }

  /** While listeners are connected: their keys checked, and whom this instance has told to the others now and then. */
  private tick(): void {
    if (this.timer || !this.local.size) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check().finally(() => this.tick());
    }, CHECK_MS);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    for (const l of [...this.local.values()]) {
      if (l.authorization === undefined || (await this.opts.admits(l.authorization))) continue;
      l.out.write(
        `event: closed\ndata: ${JSON.stringify({ reason: 'the key was revoked or deactivated, or its account removed' })}\n\n`,
      );
      l.out.end();
    }
    this.sinceAnnounced += CHECK_MS;
    if (this.sinceAnnounced < PRESENCE_MS) return;
    this.sinceAnnounced = 0;
    await this.opts.peers?.slots
      .keep([...this.local.keys()])
      .catch(lostWith(this.opts.warn, "keeping this instance's listener slots (they lapse unless kept)"));
    for (const account of new Set([...this.local.values()].map((l) => l.accountId))) this.announce(account);
  }

  /** Ends every stream (the server closes). */
  close(): void {
    clearTimeout(this.timer);
    for (const l of [...this.local.values()]) l.out.end();
  }
}
