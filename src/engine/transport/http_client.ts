/**
 * The one way dipswitch calls out over HTTP: a real request with a time limit (node:http rather than
 * fetch, because the spec's HTTP route callback is a GET with a JSON body).
 */
import { request as httpRequest, validateHeaderName, validateHeaderValue } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RECEIVER_ANSWER_BYTES } from '../../limits.js';
import { OutboundRefused, type OutboundPolicy } from './outbound.js';

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one request; the policy checks the address actually connected to. Only the first
 * RECEIVER_ANSWER_BYTES of an answer are kept.
 */
export async function send(req: OutboundRequest, timeoutMs: number, policy: OutboundPolicy): Promise<OutboundResponse> {
  for (const [name, value] of Object.entries(req.headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      // node's invalid header name or value: refused, not sent
      throw new OutboundRefused(`the header ${JSON.stringify(name)} cannot be sent`);
    }
  }
  return new Promise((resolve, reject) => {
    const url = new URL(req.url);
    const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    const call = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: req.method,
        headers: { ...req.headers, 'content-length': String(body.length) },
        timeout: timeoutMs,
        lookup: policy.lookup,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept >= RECEIVER_ANSWER_BYTES) return;
          chunks.push(c.subarray(0, RECEIVER_ANSWER_BYTES - kept));
          kept += c.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
            ),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    call.on('timeout', () => call.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    call.on('error', reject);
    call.end(body);
  });
}

/** A medium fetched for a message that carries content (MM4, multipart, RFC 822), at most this big. */
export const MEDIA_BYTES = 5 * 1024 * 1024;

/** GETs `url` under the outbound policy: its content type and bytes; more than `limit` bytes is an error. */
export function fetchBytes(
  url: string,
  timeoutMs: number,
  policy: OutboundPolicy,
  limit = MEDIA_BYTES,
): Promise<{ contentType: string; bytes: Buffer }> {
  const denial = policy.denial(url);
  if (denial) return Promise.reject(new OutboundRefused(`the medium ${url}: ${denial}`));
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const call = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      { method: 'GET', timeout: timeoutMs, lookup: policy.lookup },
      (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
          res.resume();
          return reject(new Error(`the medium ${url} answered ${res.statusCode}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limit) call.destroy(new Error(`the medium ${url} is over ${limit} bytes`));
          else chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            contentType: res.headers['content-type'] ?? 'application/octet-stream',
            bytes: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    call.on('timeout', () => call.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    call.on('error', reject);
    call.end();
  });
}
