/**
 * One error type and the catalog of codes from interface.md section 4. Handlers throw ApiError;
 * the pipeline turns it into the spec's envelope `{ errors: [...] }`.
 */
import type { components } from '../generated/api.js';

export type ErrorObject = components['schemas']['error'];
export type ErrorEnvelope = components['schemas']['error_response'];

/** Codes dipswitch answers, with their title and status. `invalid_parameter` takes its status from the operation. */
export const errorCatalog = {
  invalid_parameter: { status: 'per-operation', title: 'Invalid parameter' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  'access_denied.unauthenticated': { status: 403, title: 'Access denied' },
  'access_denied.no_scope': { status: 403, title: 'Access denied' },
  resource_in_use: { status: 422, title: 'Resource in use' },
  cart_checked_out: { status: 422, title: 'Cart checked out' },
  limit_reached: { status: 422, title: 'Limit reached' },
  'conflict.changing_shared_resource_group': { status: 409, title: 'Conflict' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  not_implemented: { status: 501, title: 'Not implemented' },
  storage_unavailable: { status: 503, title: 'Storage unavailable' },
  internal_error: { status: 500, title: 'Internal error' },
} as const satisfies Record<string, { status: number | 'per-operation'; title: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export interface ErrorInit {
  detail: string;
  sub_code?: string;
  params?: Record<string, unknown>;
  source?: { pointer?: string; parameter?: string };
}

/** A failure with one or more errors of the same code. */
export class ApiError extends Error {
  readonly errors: ErrorObject[];

  constructor(
    readonly code: ErrorCode,
    inits: ErrorInit[],
  ) {
    super(`${code}: ${inits.map((i) => i.detail).join('; ')}`);
    this.errors = inits.map((i) => ({
      code,
      detail: i.detail,
      title: errorCatalog[code].title,
      sub_code: i.sub_code ?? 'none',
      ...(i.params ? { params: i.params } : {}),
      ...(i.source ? { source: i.source } : {}),
    }));
  }

  /** The HTTP status, given the status the operation uses for invalid input (404 or 422). */
  status(invalidStatus: number): number {
    const s = errorCatalog[this.code].status;
    return s === 'per-operation' ? invalidStatus : s;
  }

  envelope(): ErrorEnvelope {
    return { errors: this.errors };
  }
}

/** An invalid field of the body, named by its JSON pointer. */
export const invalidField = (pointer: string, detail: string): ApiError =>
  new ApiError('invalid_parameter', [{ detail, source: { pointer } }]);

/** An invalid query or path parameter. */
export const invalidParameter = (parameter: string, detail: string): ApiError =>
  new ApiError('invalid_parameter', [{ detail, source: { parameter } }]);

export const notFound = (type: string, id: string): ApiError =>
  new ApiError('not_found', [{ detail: `No ${type} with id ${id}.`, params: { resource: { id, type } } }]);

export const inUse = (detail: string): ApiError => new ApiError('resource_in_use', [{ detail }]);

/** Answers the record, or throws `not_found` for it. */
export function assertFound<T>(record: T | undefined | null, type: string, id: string): T {
  if (record === undefined || record === null) throw notFound(type, id);
  return record;
}

/** Throws one `invalid_parameter` with an entry per violation, if there are any. */
export function assertNoViolations(violations: { pointer: string; detail: string }[]): void {
  if (violations.length)
    throw new ApiError(
      'invalid_parameter',
      violations.map((v) => ({ detail: v.detail, source: { pointer: v.pointer } })),
    );
}
