/** An SMPP client for the tests: the `smpp` package, as a client team's integration would use it. */
import smpp, { type PDU, type Session } from 'smpp';

export interface Client {
  session: Session;
  /** deliver_sm PDUs received (each answered ESME_ROK unless `answer` says otherwise). */
  received: PDU[];
  answer: number[];
  bind(kind: string, systemId: string, password: string): Promise<number>;
  call(command: string, fields?: Record<string, unknown>): Promise<PDU>;
  close(): void;
}

export async function client(port: number): Promise<Client> {
  const session = await new Promise<Session>((resolve, reject) => {
    const s: Session = smpp.connect({ url: `smpp://127.0.0.1:${port}` }, () => resolve(s));
    s.on('error', reject);
  });
  const received: PDU[] = [];
  const answer: number[] = [];
  session.on('deliver_sm', (pdu: PDU) => {
    received.push(pdu);
    session.send(pdu.response({ command_status: answer.shift() ?? 0 }));
  });
  const call = (command: string, fields: Record<string, unknown> = {}) =>
    new Promise<PDU>((resolve) => session.send(new smpp.PDU(command, fields), resolve));
  return {
    session,
    received,
    answer,
    call,
    bind: async (kind, system_id, password) => (await call(`bind_${kind}`, { system_id, password })).command_status,
    close: () => session.destroy(),
  };
}

/** A deliver_sm's text (the smpp package decodes it by data_coding). */
export const messageOf = (pdu: PDU) => (pdu.short_message as { message: string }).message;
