/**
 * The refusals dipswitch's rules make, one type for all of them, with the catalog of codes from
 * interface.md section 4 and their titles. Rules, the simulation and handlers throw DomainError;
 * nothing below src/http knows what HTTP status a code answers (src/http/errors.ts maps it).
 */
import type { components } from '../generated/api.js';

export type ErrorObject = components['schemas']['error'];

/** The codes dipswitch answers, with their titles. */
export const errorTitles = {
  invalid_parameter: 'Invalid parameter',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  'access_denied.unauthenticated': 'Access denied',
  'access_denied.no_scope': 'Access denied',
  resource_in_use: 'Resource in use',
  cart_checked_out: 'Cart checked out',
  limit_reached: 'Limit reached',
  verification_failed: 'Verification failed',
  'conflict.changing_shared_resource_group': 'Conflict',
  payload_too_large: 'Payload too large',
  not_implemented: 'Not implemented',
  storage_unavailable: 'Storage unavailable',
  backlog_full: 'Backlog full',
  rate_limited: 'Rate limited',
  internal_error: 'Internal error',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof errorTitles;

export interface ErrorInit {
  detail: string;
  sub_code?: string;
  params?: Record<string, unknown>;
  source?: { pointer?: string; parameter?: string };
}

/** A refusal with one or more errors of the same code. */
export class DomainError extends Error {
  readonly errors: ErrorObject[];

  constructor(
    readonly code: ErrorCode,
    inits: ErrorInit[],
    /** Fields the error answer carries beside `errors` (a failed verification's near misses). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(`${code}: ${inits.map((i) => i.detail).join('; ')}`);
    this.errors = inits.map((i) => ({
      code,
      detail: i.detail,
      title: errorTitles[code],
      sub_code: i.sub_code ?? 'none',
      ...(i.params ? { params: i.params } : {}),
      ...(i.source ? { source: i.source } : {}),
    }));
  }
}

/** An invalid field of the body, named by its JSON pointer. */
export const invalidField = (pointer: string, detail: string): DomainError =>
  new DomainError('invalid_parameter', [{ detail, source: { pointer } }]);

/** An invalid query or path parameter. */
export const invalidParameter = (parameter: string, detail: string): DomainError =>
  new DomainError('invalid_parameter', [{ detail, source: { parameter } }]);

export const notFound = (type: string, id: string): DomainError =>
  new DomainError('not_found', [{ detail: `No ${type} with id ${id}.`, params: { resource: { id, type } } }]);

export const inUse = (detail: string): DomainError => new DomainError('resource_in_use', [{ detail }]);

/** Answers the record, or throws `not_found` for it. */
export function assertFound<T>(record: T | undefined | null, type: string, id: string): T {
  if (record === undefined || record === null) throw notFound(type, id);
  return record;
}

/** Throws one `invalid_parameter` with an entry per violation, if there are any. */
export function assertNoViolations(violations: { pointer: string; detail: string }[]): void {
  if (violations.length)
    throw new DomainError(
      'invalid_parameter',
      violations.map((v) => ({ detail: v.detail, source: { pointer: v.pointer } })),
    );
}
