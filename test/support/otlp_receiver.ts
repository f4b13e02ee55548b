/**
 * An OTLP/HTTP trace receiver on loopback, as a collector is one: `POST /v1/traces` in either protocol
 * (`application/x-protobuf`, read by a decoder of the protobuf wire format written here for the
 * fields of opentelemetry-proto's trace.proto a test reads; `application/json`, OTLP's JSON with hex
 * ids), every span kept in one shape.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string; attributes: Record<string, string | number | boolean> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  service: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The content types of the exports received. */
  types: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const types: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = String(req.headers['content-type'] ?? '');
      types.push(type);
      if (req.url !== '/v1/traces') return void res.writeHead(404).end();
      spans.push(...(type.includes('json') ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body)));
      res.writeHead(200, { 'content-type': type }).end(type.includes('json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    types,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

type Json = Record<string, unknown>;
type Attrs = Record<string, string | number | boolean>;

function jsonAttributes(list: unknown): Attrs {
  const out: Attrs = {};
  for (const kv of (list ?? []) as { key: string; value: Json }[]) {
    const v = kv.value;
    out[kv.key] = (v.stringValue ?? v.boolValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.doubleValue)) as
      string | number | boolean;
  }
  return out;
}

function fromJson(request: Json): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of (request.resourceSpans ?? []) as Json[]) {
    const service = String(jsonAttributes((rs.resource as Json | undefined)?.attributes)['service.name'] ?? '');
    for (const ss of (rs.scopeSpans ?? []) as Json[])
      for (const s of (ss.spans ?? []) as Json[])
        out.push({
          traceId: String(s.traceId),
          spanId: String(s.spanId),
          parentSpanId: String(s.parentSpanId ?? ''),
          name: String(s.name),
          kind: Number(s.kind),
          attributes: jsonAttributes(s.attributes),
          links: ((s.links ?? []) as Json[]).map((l) => ({
            traceId: String(l.traceId),
            spanId: String(l.spanId),
            attributes: jsonAttributes(l.attributes),
          })),
          status: Number((s.status as Json | undefined)?.code ?? 0),
          service,
        });
  }
  return out;
}

/** The fields of one protobuf message: each number's values, in order (varints as numbers, the rest as bytes). */
function fields(buf: Buffer): Map<number, (number | Buffer)[]> {
  const out = new Map<number, (number | Buffer)[]>();
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let mul = 1;
    for (;;) {
      const b = buf[at++] ?? 0;
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 128;
    }
  };
  while (at < buf.length) {
    const key = varint();
    const [field, wire] = [Math.floor(key / 8), key & 7];
    let value: number | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 1) value = buf.subarray(at, (at += 8));
    else if (wire === 5) value = buf.subarray(at, (at += 4));
    else if (wire === 2) {
      const n = varint();
      value = buf.subarray(at, (at += n));
    } else throw new Error(`protobuf wire type ${wire} is not read here`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const bytesOf = (f: Map<number, (number | Buffer)[]>, n: number): Buffer[] =>
  (f.get(n) ?? []).filter((v): v is Buffer => Buffer.isBuffer(v));
const hexOf = (f: Map<number, (number | Buffer)[]>, n: number) => bytesOf(f, n)[0]?.toString('hex') ?? '';
const textOf = (f: Map<number, (number | Buffer)[]>, n: number) => bytesOf(f, n)[0]?.toString('utf8') ?? '';
const numberOf = (f: Map<number, (number | Buffer)[]>, n: number) => {
  const v = f.get(n)?.[0];
  return typeof v === 'number' ? v : 0;
};

function protobufAttributes(list: Buffer[]): Attrs {
  const out: Attrs = {};
  for (const kv of list) {
    const f = fields(kv);
    const value = fields(bytesOf(f, 2)[0] ?? Buffer.alloc(0));
    const key = textOf(f, 1);
    if (value.has(1)) out[key] = textOf(value, 1);
    else if (value.has(2)) out[key] = numberOf(value, 2) === 1;
    else if (value.has(3)) out[key] = numberOf(value, 3);
    else if (value.has(4)) out[key] = bytesOf(value, 4)[0]?.readDoubleLE(0) ?? 0;
  }
  return out;
}

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of bytesOf(fields(body), 1)) {
    const r = fields(rs);
    const resource = fields(bytesOf(r, 1)[0] ?? Buffer.alloc(0));
    const service = String(protobufAttributes(bytesOf(resource, 1))['service.name'] ?? '');
    for (const ss of bytesOf(r, 2))
      for (const sp of bytesOf(fields(ss), 2)) {
        const s = fields(sp);
        out.push({
          traceId: hexOf(s, 1),
          spanId: hexOf(s, 2),
          parentSpanId: hexOf(s, 4),
          name: textOf(s, 5),
          kind: numberOf(s, 6),
          attributes: protobufAttributes(bytesOf(s, 9)),
          links: bytesOf(s, 13).map((l) => {
            const lf = fields(l);
            return { traceId: hexOf(lf, 1), spanId: hexOf(lf, 2), attributes: protobufAttributes(bytesOf(lf, 4)) };
          }),
          status: numberOf(fields(bytesOf(s, 15)[0] ?? Buffer.alloc(0)), 3),
          service,
        });
      }
  }
  return out;
}
