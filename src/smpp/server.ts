/**
 * The SMPP 3.4 server (docs/protocols.md, "SMPP"): binds of the three kinds authenticated by an API key's SMPP
 * system id and secret, `enquire_link`, `unbind`, `submit_sm` from a bound client, `deliver_sm` to
 * one of a key's receiving binds (several binds of one key share its traffic, in turn). Bad input
 * gets SMPP's own answers: a PDU that cannot be read a `generic_nack` (ESME_RINVCMDLEN) and the
 * connection closed, an unknown command a `generic_nack` (ESME_RINVCMDID), a PDU before a bind
 * ESME_RINVBNDSTS. Connections that have not bound are bounded in number and in time.
 */
import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Server, type Session } from 'smpp';
import { answerOf, applied } from './answers.js';
import type { Bound, BindKind, Exchange, SmppBinds } from '../engine/transport/smpp_binds.js';
import { SMPP_STATUS, type SmppHooks } from '../engine/transport/smpp_hooks.js';
import { NO_TRACES, type OpenSpan, type Tracing } from '../observability/tracing.js';

export { SMPP_STATUS, type SmppHooks } from '../engine/transport/smpp_hooks.js';

export interface SmppLimits {
  /** Connections that have not bound, at most; one more is closed as it arrives. */
  unbound: number;
  /** A connection that has not bound within this is closed. */
  bindTimeoutMs: number;
  /** Binds of one key at once, at most; one more is refused with ESME_RBINDFAIL. */
  bindsPerKey: number;
  /** A bind silent this long is sent an enquire_link; one it leaves unanswered ENQUIRE_LINK_TIMEOUT_MS closes it. */
  enquireLinkMs?: number;
}

/** An enquire_link of dipswitch's not answered within this closes its bind. */
export const ENQUIRE_LINK_TIMEOUT_MS = 5_000;

const BIND_KINDS: Record<string, BindKind> = {
  bind_receiver: 'receiver',
  bind_transmitter: 'transmitter',
  bind_transceiver: 'transceiver',
};

/** One TCP connection: its session, and its bind once it has one. */
interface Connection {
  session: Session;
  /** Its span, from the connection to its close; each PDU it sends a child. */
  span: OpenSpan;
  bound?: Bound;
  /** The account whose system id a refused bind named: its journal holds the refusal. */
  claimed?: string;
  timer: NodeJS.Timeout;
  /** Once bound: the enquire_link that wakes when the bind has been silent (SmppLimits.enquireLinkMs). */
  idle?: NodeJS.Timeout;
}

export class SmppServer {
  private readonly server: Server;
  private readonly unbound = new Set<Connection>();

  constructor(
    private readonly binds: SmppBinds,
    private readonly hooks: SmppHooks,
    private readonly limits: SmppLimits,
    /** Told of a failure of dipswitch's own while it answered a PDU. */
    private readonly failed: (message: string) => void = () => {},
    private readonly tracing: Pick<Tracing, 'open'> = NO_TRACES,
  ) {
    this.server = smpp.createServer({}, (session) => this.open(session));
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  close(): Promise<void> {
    for (const session of [...this.server.sessions]) session.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private open(session: Session): void {
    if (this.unbound.size >= this.limits.unbound) {
      session.destroy();
      return;
    }
    const timer = setTimeout(() => session.destroy(), this.limits.bindTimeoutMs);
    timer.unref();
    const span = this.tracing.open({
      name: 'SMPP session',
      kind: 'server',
      attributes: {
        'network.peer.address': session.socket.remoteAddress,
        'network.peer.port': session.socket.remotePort,
      },
    });
    const conn: Connection = { session, timer, span };
    this.unbound.add(conn);
    session.on('pdu', (pdu: PDU) => {
      this.watch(conn);
      void this.take(conn, pdu);
    });
    // a PDU that cannot be read (too long, truncated, garbage): SMPP's answer, then the connection closes
    let failed = false;
    session.on('error', () => {
      if (failed) return;
      failed = true;
      const nack = new smpp.PDU('generic_nack', { command_status: SMPP_STATUS.ESME_RINVCMDLEN });
      if (session.socket.writable) session.socket.end(nack.toBuffer());
      session.destroy();
    });
    session.on('close', () => {
      clearTimeout(timer);
      clearTimeout(conn.idle);
      this.unbound.delete(conn);
      if (conn.bound) this.binds.remove(conn.bound);
      span.end();
    });
  }

  /**
   * (Re)sets a bound connection's idle timer: silent for `enquireLinkMs`, it is sent an enquire_link,
   * and closed when that goes unanswered for ENQUIRE_LINK_TIMEOUT_MS (a peer that is gone, or stuck).
   */
  private watch(conn: Connection): void {
    clearTimeout(conn.idle);
    const bound = conn.bound;
    if (!bound || !this.limits.enquireLinkMs) return;
    conn.idle = setTimeout(() => {
      const pdu = new smpp.PDU('enquire_link', {});
      const started = performance.now();
      const timeout = setTimeout(() => {
        this.hooks.journal({ ...exchangeOf(bound, pdu, null), latencyMs: performance.now() - started });
        conn.session.destroy();
      }, ENQUIRE_LINK_TIMEOUT_MS);
      timeout.unref();
      conn.session.send(pdu, (resp: PDU) => {
        clearTimeout(timeout);
        this.hooks.journal({ ...exchangeOf(bound, pdu, resp), latencyMs: performance.now() - started });
        this.watch(conn);
      });
    }, this.limits.enquireLinkMs);
    conn.idle.unref();
  }

  private async take(conn: Connection, pdu: PDU): Promise<void> {
    if (pdu.isResponse() || pdu.command === 'generic_nack') return;
    // a span of the session, the cause of what the PDU makes (a submit_sm's receipt)
    const span = {
      name: `SMPP ${pdu.command}`,
      kind: 'server' as const,
      cause: null,
      causes: true,
      attributes: { 'dipswitch.smpp.command': pdu.command, 'dipswitch.smpp.sequence_number': pdu.sequence_number },
    };
    await conn.span.child(span, async (traced) => {
      const response = await this.answered(conn, pdu);
      traced.set({ 'dipswitch.smpp.command_status': response?.command_status ?? undefined });
      if (!response) traced.fail('the connection was dropped');
      else if (response.command_status) traced.fail(`command_status 0x${response.command_status.toString(16)}`);
    });
  }

  /** Answers a PDU (or drops the connection), journaled; answers what it sent. */
  private async answered(conn: Connection, pdu: PDU): Promise<PDU | null> {
    const started = performance.now();
    const systemId = conn.bound?.systemId ?? String(pdu.system_id ?? '');
    let response: PDU | null = null;
    try {
      response = await this.answer(conn, pdu);
    } catch (e) {
      // a dipswitch failure, not the client's: said, and answered as SMPP says a system error is
      this.failed(
        `SMPP ${pdu.command} of system id ${systemId || '(none)'} answered ESME_RSYSERR: ${(e as Error).stack ?? String(e)}`,
      );
      response = answerOf(pdu, SMPP_STATUS.ESME_RSYSERR);
    }
    const latencyMs = performance.now() - started;
    const accountId = conn.bound?.accountId ?? conn.claimed;
    this.hooks.journal({ systemId, accountId, request: pdu, response, latencyMs });
    if (!response) {
      conn.session.destroy();
      return null;
    }
    conn.session.send(response);
    if (pdu.command === 'unbind' && response.command_status === 0) conn.session.close();
    return response;
  }

  /** The answer to a PDU; null drops the connection (a fault). */
  private async answer(conn: Connection, pdu: PDU): Promise<PDU | null> {
    if (BIND_KINDS[pdu.command]) return this.bind(conn, pdu);
    if (pdu.command === 'unknown') return answerOf(pdu, SMPP_STATUS.ESME_RINVCMDID);
    const bound = conn.bound;
    if (!bound) return answerOf(pdu, SMPP_STATUS.ESME_RINVBNDSTS);
    if (pdu.command === 'unbind') return answerOf(pdu, 0);
    if (pdu.command === 'enquire_link') {
      const faulted = await applied(await this.hooks.fault('enquire_link', bound.systemId, bound.accountId), pdu);
      // null drops the connection: only a fault that did not fire leaves the usual answer
      return faulted === undefined ? answerOf(pdu, 0) : faulted;
    }
    if (pdu.command === 'submit_sm') {
      if (bound.kind === 'receiver') return answerOf(pdu, SMPP_STATUS.ESME_RINVBNDSTS);
      const effect = await this.hooks.fault('submit_sm', bound.systemId, bound.accountId);
      const faulted = await applied(effect, pdu);
      if (faulted !== undefined) return faulted;
      const { status, message_id } = await this.hooks.submit(bound, pdu);
      return status ? answerOf(pdu, status) : pdu.response({ message_id });
    }
    // a command SMPP knows that this SMSC does not take (query_sm, replace_sm, data_sm, …)
    return answerOf(pdu, SMPP_STATUS.ESME_RINVCMDID);
  }

  private async bind(conn: Connection, pdu: PDU): Promise<PDU | null> {
    if (conn.bound) return answerOf(pdu, SMPP_STATUS.ESME_RALYBND);
    const systemId = String(pdu.system_id ?? '');
    // no PDU of this connection is taken until the bind is decided
    conn.session.pause();
    try {
      const auth = await this.hooks.authenticate(systemId, String(pdu.password ?? ''));
      if ('status' in auth) {
        conn.claimed = auth.accountId;
        return answerOf(pdu, auth.status);
      }
      const faulted = await applied(await this.hooks.fault('bind', systemId, auth.accountId), pdu);
      if (faulted !== undefined) return faulted;
      if (this.binds.count(auth.keyId) >= this.limits.bindsPerKey) return answerOf(pdu, SMPP_STATUS.ESME_RBINDFAIL);
      const kind = BIND_KINDS[pdu.command] ?? 'transceiver';
      const bound: Bound = { ...auth, systemId, kind, session: conn.session, span: conn.span };
      conn.span.set({
        'dipswitch.smpp.system_id': systemId,
        'dipswitch.smpp.bind': kind,
        'dipswitch.account_id': auth.accountId,
      });
      conn.bound = bound;
      clearTimeout(conn.timer);
      this.unbound.delete(conn);
      this.binds.add(bound);
      this.watch(conn);
      // after the bind_resp has gone: what waits for this key follows it
      setImmediate(() => this.hooks.bound(bound));
      return pdu.response({ system_id: 'dipswitch' });
    } finally {
      conn.session.resume();
    }
  }
}

/** A PDU dipswitch sent a bind, and its answer, for the journal. */
const exchangeOf = (bound: Bound, request: PDU, response: PDU | null): Omit<Exchange, 'latencyMs'> => ({
  systemId: bound.systemId,
  accountId: bound.accountId,
  request,
  response,
});
