/**
 * Node's request and response classes for a server of an express app (createServer's `IncomingMessage` and
 * `ServerResponse` options), made with the app's own prototypes (`app.request`, `app.response`) from the start.
 * Express gives each call's request and response those prototypes as the call comes in; on an object that already
 * has them that is no change. A prototype changed on a live object costs V8 a slow path on every later read of it,
 * and Node's own HTTP code reads both objects all through a call: a GET cost 3-4 times its time on Node 20 and 22,
 * about 1.2 times on 24 and 26 (BENCHMARKS.md, "Node's request and response").
 */
import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

export function serverClasses(app: Express): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  class Request extends IncomingMessage {}
  class Response<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
  // each class's prototype takes the place of the app's: the same chain (express's methods, then Node's) and the
  // same own properties (the app)
  const made = [
    [Request.prototype, 'request'],
    [Response.prototype, 'response'],
  ] as const;
  for (const [prototype, kind] of made) {
    Object.setPrototypeOf(prototype, Object.getPrototypeOf(app[kind]) as object);
    Object.defineProperties(prototype, Object.getOwnPropertyDescriptors(app[kind]));
    Object.assign(app, { [kind]: prototype });
  }
  return { IncomingMessage: Request, ServerResponse: Response };
}
