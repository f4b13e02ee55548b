/** The part of the `smpp` package (node-smpp, SMPP 3.4/5.0) dipswitch and its tests use. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export interface PDU {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
  }

  export const PDU: {
    new (command: string, options?: Record<string, unknown>): PDU;
    maxLength: number;
  };

  export interface Session extends EventEmitter {
    socket: Socket;
    paused: boolean;
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    [command: string]: unknown;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;
  export function connect(options: Record<string, unknown>, listener?: () => void): Session;

  const smpp: {
    PDU: typeof PDU;
    createServer: typeof createServer;
    connect: typeof connect;
    [constant: string]: unknown;
  };
  export default smpp;
}
