/** The values flags take, each checked as commander parses it (a wrong one: one line, exit code 2). */
import { InvalidArgumentError } from 'commander';
import { DENIABLE, type Deniable } from '../engine/transport/outbound.js';

// ---- flag values

export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `a whole number of at least ${min} is needed`
          : `a whole number from ${min} to ${max} is needed`,
      );
    return n;
  };
}

export function instant(raw: string): Date {
  // an ISO 8601 date and time with its offset, e.g. 2026-03-01T12:00:00Z
  const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw);
  const at = new Date(raw);
  if (!ok || Number.isNaN(at.getTime()))
    throw new InvalidArgumentError('an ISO 8601 time with its offset is needed, e.g. 2026-03-01T12:00:00Z');
  return at;
}

export function hostList(raw: string): string[] {
  return raw
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
}

export function denyList(raw: string): Deniable[] {
  const classes = hostList(raw);
  for (const c of classes)
    if (!(DENIABLE as readonly string[]).includes(c))
      throw new InvalidArgumentError(`it takes ${DENIABLE.join(', ')} (comma-separated), not ${c}`);
  return classes as Deniable[];
}

/** A PostgreSQL URL: a TCP one, or a Unix socket's (`postgres:///db?host=/run/postgresql`, no host to parse). */
export function postgresUrl(raw: string): string {
  if (/^postgres(ql)?:\/\/\S*$/i.test(raw)) return raw;
  throw new InvalidArgumentError('a postgres:// URL is needed');
}

export function url(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw;
  } catch {
    // said below
  }
  throw new InvalidArgumentError('an http:// or https:// URL is needed');
}

/** A trace viewer's page of one trace: an http(s) URL with `{trace_id}` where the id goes. */
export function traceViewerUrl(raw: string): string {
  let scheme = '';
  try {
    scheme = new URL(raw.replace('{trace_id}', '0')).protocol;
  } catch {
    // not a URL: said below
  }
  if ((scheme === 'http:' || scheme === 'https:') && raw.includes('{trace_id}')) return raw;
  throw new InvalidArgumentError(
    'an http(s) URL with {trace_id} in it is needed, e.g. http://127.0.0.1:16686/trace/{trace_id}',
  );
}
