/**
 * Where the platform delivers to (spec: Call data webhook, Event subscription, Bulk dip task
 * on-done actions): the target each protocol needs and the credentials each auth method needs; and
 * how often a delivery that failed is tried again.
 */
import { httpUrlProblem, sftpTargetProblem, sftpUrlProblem, type Problem } from './addresses.js';
import type { Violation } from './switches.js';

export interface Target {
  protocol: string;
  data?: string | null;
  auth_method?: string;
  auth_identity?: string | null;
}

const TARGET: Record<string, ((v: string | null | undefined) => Problem) | undefined> = {
  HTTP: httpUrlProblem,
  SFTP: sftpUrlProblem,
};

/**
 * What is wrong with a delivery target; `at` is the pointer of the object holding it.
 * `sftpHostAllowed`: the call data webhook also takes a bare `host[:port]` for SFTP.
 */
export function targetViolations(at: string, t: Target, sftpHostAllowed = false): Violation[] {
  const out: Violation[] = [];
  const rule = t.protocol === 'SFTP' && sftpHostAllowed ? sftpTargetProblem : TARGET[t.protocol];
  const problem = rule?.(t.data);
  if (problem) out.push({ pointer: `${at}/data`, detail: `data ${problem} for protocol ${t.protocol}.` });
  // credentials are not required (the spec marks none): a delivery without them says so in its log
  return out;
}

/**
 * The provider's retry schedule for a delivery that failed (interface.md section 8): after 1 min,
 * 5 min, 30 min, 2 h and 6 h on the account's clock; then it has failed for good.
 */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
/** The wait after the last in the schedule, should a delivery be tried once more. */
export const LAST_BACKOFF_MS = 6 * 3600_000;
