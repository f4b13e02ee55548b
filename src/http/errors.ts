/**
 * What HTTP status each refusal answers (src/domain/errors.ts), and the spec's envelope it goes in.
 * `invalid_parameter` takes its status from the operation (interface.md section 4: 404 or 422).
 */
import type { components } from '../generated/api.js';
import type { DomainError, ErrorCode } from '../domain/errors.js';

export type ErrorEnvelope = components['schemas']['error_response'];

const STATUS = {
  invalid_parameter: 'per-operation',
  not_found: 404,
  method_not_allowed: 405,
  'access_denied.unauthenticated': 403,
  'access_denied.no_scope': 403,
  resource_in_use: 422,
  cart_checked_out: 422,
  limit_reached: 422,
  verification_failed: 422,
  'conflict.changing_shared_resource_group': 409,
  payload_too_large: 413,
  not_implemented: 501,
  storage_unavailable: 503,
  backlog_full: 503,
  rate_limited: 429,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number | 'per-operation'>;

/** The HTTP status of a refusal, given the status the operation uses for invalid input (404 or 422). */
export function statusOf(error: DomainError, invalidStatus: number): number {
  const s = STATUS[error.code];
  return s === 'per-operation' ? invalidStatus : s;
}

export const envelope = (error: DomainError): ErrorEnvelope => ({ errors: error.errors, ...error.extra });
