/** A local HTTP server standing in for a client's endpoint (tests and scenarios): it records every request and answers as told. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a receiver's caller reads the JSON it got by its fields, as a client would
  json<T = any>(): T;
}

export interface Reply {
  status?: number;
  contentType?: string;
  body?: string;
  /** Answers only once this settles: a slow receiver. */
  after?: Promise<unknown>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers to give, in order; after they run out, 200 with an empty JSON object. */
  replies: Reply[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const replies: Reply[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      received.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        text: body.toString('utf8'),
        json: () => JSON.parse(body.toString('utf8')),
      });
      const reply = replies.shift() ?? {};
      void Promise.resolve(reply.after).finally(() => {
        res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' });
        res.end(reply.body ?? '{}');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    replies,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
