/**
 * The validating proxy (`npm start -- proxy --upstream URL`): forwards every request to the real
 * service and checks the request and the response against the contract with @stoplight/prism-http,
 * logging each violation with its JSON pointer. prism-http is loaded here only, never by the server.
 */
import express, { type Request, type Response } from 'express';
import { createServer, type Server } from 'node:http';
import { serverClasses } from '../http/classes.js';
import type { Logger } from '../deps.js';
import { contractPath } from '../contract.js';
import type { Recorder } from './recording.js';
import type { Shadow } from './shadow.js';
import { parseJson } from '../domain/json.js';
import { loadFeature } from '../domain/features.js';

export interface Violation {
  at: string;
  method: string;
  path: string;
  /** `request` or `response`. */
  side: 'request' | 'response';
  /** A JSON pointer into the request or response (`/body/data/name`). */
  pointer: string;
  message: string;
  severity: string;
}

export interface ProxyOptions {
  upstream: string;
  port: number;
  host: string;
  logger: Logger;
  /** Time stamps of the violation log; the wall clock by default (src/deps.ts). */
  now: () => string;
  /** Keeps every /api/v1 call that passes (`--record DIR`). */
  recorder?: Recorder;
  /** Makes every /api/v1 call again to an in-process dipswitch and compares the answers (`--shadow`). */
  shadow?: Shadow;
}

const pointer = (path: string[] | undefined): string =>
  `/${(path ?? []).map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

type Prism = ReturnType<typeof import('@stoplight/prism-http').createInstance>;
type PrismMethod = Parameters<Prism['request']>[0]['method'];

const PRISM_METHODS: readonly string[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Whether prism has a name for a request's method (lower case): the proxy answers any other 405. */
/** The proxy's answer to a method prism has no name for. */
const unknownMethod = (method: string) => ({
  errors: [
    {
      code: 'method_not_allowed',
      title: 'Method not allowed',
      sub_code: 'none',
      detail: `The proxy checks no ${method} request.`,
    },
  ],
});

const isPrismMethod = (m: string): m is PrismMethod => PRISM_METHODS.includes(m);
type Operations = Awaited<ReturnType<typeof import('@stoplight/prism-http').getHttpOperationsFromSpec>>;
type PrismInput = Parameters<Prism['request']>[0];
type PrismValidations = Extract<
  Awaited<ReturnType<ReturnType<Prism['request']>>>,
  { _tag: 'Right' }
>['right']['validations'];

/** prism-http as a validating proxy to the upstream, with the contract's operations. */
async function loadPrism(upstream: string): Promise<{ prism: Prism; operations: Operations }> {
  const [{ createInstance, getHttpOperationsFromSpec }, { default: pino }] = await Promise.all([
    loadFeature('proxy', () => import('@stoplight/prism-http')),
    import('pino'),
  ]);
  const operations = await getHttpOperationsFromSpec(contractPath);
  const prism = createInstance(
    {
      isProxy: true,
      upstream: new URL(upstream),
      validateRequest: true,
      validateResponse: true,
      checkSecurity: false,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false },
    },
    { logger: pino({ level: 'silent' }) },
  );
  return { prism, operations };
}

/** The client's request as prism takes it: a JSON body parsed, headers as strings, the query as lists. */
function prismInput(
  req: Request,
  method: PrismMethod,
): { input: PrismInput; path: string; raw: Buffer; json: unknown; opaque?: string } {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const isJson = String(req.headers['content-type'] ?? '').includes('json');
  let body: unknown = raw.length ? raw.toString('utf8') : undefined;
  let json: unknown;
  // a body that is not JSON is forwarded as it came; prism reports what is wrong with it
  if (isJson && raw.length) json = parseJson(raw.toString('utf8'));
  if (json !== undefined) body = json;
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
  );
  const url = new URL(req.originalUrl, 'http://proxy');
  // a parameter given once is one value, as the server reads it: prism then coerces it to the schema's type
  const query = Object.fromEntries(
    [...new Set(url.searchParams.keys())].map((k) => {
      const all = url.searchParams.getAll(k);
      return [k, all.length === 1 ? (all[0] as string) : all];
    }),
  );
  return {
    input: { method, url: { path: url.pathname, query }, headers, body },
    path: url.pathname,
    raw,
    json,
    ...(raw.length && json === undefined ? { opaque: String(req.headers['content-type'] ?? 'untyped') } : {}),
  };
}

/** An answer's body as JSON: prism gives it parsed, or as the text it could not parse. */
function answerJson(body: unknown): unknown {
  // an answer that is not JSON has no JSON to check
  return typeof body === 'string' ? parseJson(body) : body;
}

const NO_SHADOW = {
  errors: [{ code: 'not_found', title: 'Not found', detail: 'the proxy shadows nothing: start it with --shadow' }],
};

/** What rides on an /api/v1 call once the client has its answer: the recording and the shadow's call. */
function ride(opts: ProxyOptions, req: Request, sent: ReturnType<typeof prismInput>, status: number, body: unknown) {
  if (!sent.path.startsWith('/api/v1')) return;
  const answer = answerJson(body);
  opts.recorder?.add({
    method: req.method,
    path: req.originalUrl,
    body: sent.json,
    opaque: sent.opaque,
    status,
    answer,
  });
  opts.shadow?.follow({
    method: req.method,
    path: req.originalUrl,
    contentType: req.headers['content-type'],
    body: sent.raw,
    real: { status, body: answer },
  });
}

export async function startProxy(
  opts: ProxyOptions,
): Promise<{ server: Server; violations: Violation[]; close(): Promise<void> }> {
  const { prism, operations } = await loadPrism(opts.upstream);
  const violations: Violation[] = [];
  const record = (method: string, path: string, validations: PrismValidations) => {
    for (const [side, list] of [
      ['request', validations.input],
      ['response', validations.output],
    ] as const) {
      for (const v of list) {
        const violation = {
          at: opts.now(),
          method,
          path,
          side,
          pointer: pointer(v.path),
          message: v.message,
          severity: String(v.severity),
        };
        violations.push(violation);
        opts.logger.warn(`[proxy] ${side} violation ${method} ${path} at ${violation.pointer}: ${v.message}`);
      }
    }
  };
  const app = express();
  app.disable('x-powered-by');
  app.get('/__proxy/violations', (_req, res) => {
    res.json({ count: violations.length, violations });
  });
  app.get('/__proxy/parity', (_req, res) => {
    if (opts.shadow) res.json(opts.shadow.parity.report());
    else res.status(404).json(NO_SHADOW);
  });
  app.use(express.raw({ type: () => true, limit: '10mb' }));
  app.use(async (req: Request, res: Response) => {
    const method = req.method.toLowerCase();
    if (!isPrismMethod(method)) return void res.status(405).json(unknownMethod(req.method));
    const sent = prismInput(req, method);
    const { input, path } = sent;
    const result = await prism.request(input, operations)();
    if (result._tag === 'Left') {
      opts.logger.warn(`[proxy] ${req.method} ${path}: ${result.left.message}`);
      res.status(502).json({
        errors: [{ code: 'proxy_error', title: 'Proxy error', sub_code: 'none', detail: result.left.message }],
      });
      return;
    }
    const { output, validations } = result.right;
    record(req.method, path, validations);
    for (const [k, v] of Object.entries(output.headers ?? {})) {
      if (!['content-length', 'transfer-encoding', 'connection'].includes(k.toLowerCase())) res.setHeader(k, v);
    }
    res.status(output.statusCode);
    if (output.body === undefined) res.end();
    else res.send(typeof output.body === 'string' ? output.body : JSON.stringify(output.body));
    // the recording and the shadow's call come after the client has its answer, never on its path
    ride(opts, req, sent, output.statusCode, output.body);
  });
  const server = createServer(serverClasses(app), app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, violations, close: () => new Promise((r) => server.close(() => r())) };
}
