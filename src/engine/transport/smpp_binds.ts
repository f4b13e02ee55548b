/**
 * The SMPP binds of this process (the server, smpp.ts, adds and removes them), by key: `deliver_sm`
 * goes to a receiving one of the key, in turn, each PDU after the answer to the one before, within
 * SMPP's window.
 */
import smpp, { type PDU, type Session } from 'smpp';
import { NO_TRACES, type OpenSpan } from '../../observability/tracing.js';

/** A bind's span while traces are off. */
const NO_SESSION = NO_TRACES.open({ name: '', kind: 'internal', attributes: {} });

export type BindKind = 'receiver' | 'transmitter' | 'transceiver';

/** A bound connection: whose key it is and what it may do. */
export interface Bound {
  keyId: string;
  accountId: string;
  systemId: string;
  kind: BindKind;
  session: Session;
  /** Its session's span (docs/observability.md): each PDU exchanged a child of it. */
  span?: OpenSpan;
  /**
   * deliver_sm sent to it and not answered yet, those past their time limit included (a late
   * deliver_sm_resp still frees its place): at most SMPP_WINDOW.
   */
  outstanding?: number;
}

/**
 * SMPP's window: the deliver_sm a bind may leave unanswered at once. A bind whose window is full of
 * deliver_sm it let pass their time limit neither reads nor answers: it is closed, and its key's
 * messages wait for another bind, as for none.
 */
export const SMPP_WINDOW = 10;

/** One PDU exchange, for the request journal. */
export interface Exchange {
  systemId: string;
  accountId: string | undefined;
  request: PDU;
  /** The answer; null when the connection was dropped or no answer came. */
  response: PDU | null;
  latencyMs: number;
}

/** What the server asks of the rest of dipswitch. */
/** The binds of this process, by key; `deliver_sm` goes to a receiving one, in turn. */
export class SmppBinds {
  private readonly byKey = new Map<string, Bound[]>();
  private turn = 0;

  constructor(
    private readonly journal: (exchange: Exchange) => void = () => {},
    /** Told of a bind closed because its window filled with deliver_sm it never answered. */
    private readonly onStalled: (bind: Bound) => void = () => {},
  ) {}

  add(bind: Bound): void {
    this.byKey.set(bind.keyId, [...(this.byKey.get(bind.keyId) ?? []), bind]);
  }

  remove(bind: Bound): void {
    const left = (this.byKey.get(bind.keyId) ?? []).filter((b) => b !== bind);
    if (left.length) this.byKey.set(bind.keyId, left);
    else this.byKey.delete(bind.keyId);
  }

  count(keyId: string): number {
    return this.byKey.get(keyId)?.length ?? 0;
  }

  /** The binds open here, every key's. */
  total(): number {
    let n = 0;
    for (const binds of this.byKey.values()) n += binds.length;
    return n;
  }

  /** A bind of the key that may receive (receiver or transceiver), each in turn. */
  receiving(keyId: string): Bound | undefined {
    const able = (this.byKey.get(keyId) ?? []).filter((b) => b.kind !== 'transmitter');
    return able.length ? able[this.turn++ % able.length] : undefined;
  }

  /**
   * Sends the PDUs (the parts of one message) to one receiving bind of the key, each after the
   * answer to the one before: the first command_status that is not ESME_ROK, or 0; an error when
   * no answer came; null when the key has no receiving bind here.
   */
  async deliver(
    keyId: string,
    pdus: Record<string, unknown>[],
    timeoutMs: number,
    traceparent: string | null = null,
  ): Promise<{ status: number } | { error: string } | null> {
    let bind = this.receiving(keyId);
    while (bind && (bind.outstanding ?? 0) >= SMPP_WINDOW) {
      this.stalled(bind);
      bind = this.receiving(keyId);
    }
    if (!bind) return null;
    const to = bind;
    for (const fields of pdus) {
      const pdu = new smpp.PDU('deliver_sm', fields);
      // a span of the bind's session, linked to the attempt that sent it
      const span = {
        name: 'SMPP deliver_sm',
        kind: 'client' as const,
        cause: traceparent,
        attributes: {
          'dipswitch.smpp.command': 'deliver_sm',
          'dipswitch.smpp.esm_class': Number(fields.esm_class ?? 0),
        },
      };
      const answer = await (to.span ?? NO_SESSION).child(span, async (traced) => {
        const got = await this.exchange(to, pdu, timeoutMs);
        if (typeof got === 'string') traced.fail(got);
        else traced.set({ 'dipswitch.smpp.command_status': got });
        return got;
      });
      if (typeof answer === 'string') return { error: answer };
      if (answer !== 0) return { status: answer };
    }
    return { status: 0 };
  }

  /** A bind with a window full of deliver_sm past their time limit: closed, as one that neither reads nor answers. */
  private stalled(bind: Bound): void {
    this.remove(bind);
    this.onStalled(bind);
    bind.session.destroy();
  }

  private exchange(bind: Bound, pdu: PDU, timeoutMs: number): Promise<number | string> {
    const started = performance.now();
    bind.outstanding = (bind.outstanding ?? 0) + 1;
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: number | string, response: PDU | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        bind.session.off('close', closed);
        const latencyMs = performance.now() - started;
        this.journal({ systemId: bind.systemId, accountId: bind.accountId, request: pdu, response, latencyMs });
        resolve(result);
      };
      const closed = () => done('the bind closed before answering', null);
      // past its time limit the deliver_sm keeps its place in the window until an answer comes
      const timer = setTimeout(
        () => done(`no deliver_sm_resp within ${timeoutMs} ms (${bind.outstanding} unanswered)`, null),
        timeoutMs,
      );
      bind.session.once('close', closed);
      const sent = bind.session.send(pdu, (resp) => {
        bind.outstanding = Math.max(0, (bind.outstanding ?? 1) - 1);
        done(resp.command_status, resp);
      });
      if (!sent) closed();
    });
  }
}
