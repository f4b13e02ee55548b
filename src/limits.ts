/**
 * The bounds of what callers can make a dipswitch hold (README, "Bounds"). Each has a flag; the
 * defaults suit a shared demo sandbox on a small machine.
 */
export interface Limits {
  /** What the request journal keeps, in bytes (`--journal-bytes`). */
  journalBytes: number;
  /** How many snapshots are kept (`--max-snapshots`). */
  snapshots: number;
  /** What the snapshots' document files take together, in bytes (`--snapshot-bytes`). */
  snapshotBytes: number;
  /** How many sandboxes may exist at once (`--max-sandboxes`). */
  sandboxes: number;
  /** How long a client may take to send its headers (`--headers-timeout`, ms). */
  headersTimeoutMs: number;
  /** How long a client may take to send its whole request (`--request-timeout`, ms). */
  requestTimeoutMs: number;
  /** Connections open at once; more are closed as they arrive (`--max-connections`). */
  connections: number;
}

export const DEFAULT_LIMITS: Limits = {
  journalBytes: 64 * 1024 * 1024,
  snapshots: 20,
  snapshotBytes: 256 * 1024 * 1024,
  sandboxes: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  connections: 1_000,
};

/** How many problems one `invalid_parameter` answer lists; the rest are counted. */
export const ERRORS_PER_ANSWER = 100;

/** How much of a receiver's answer a delivery reads (an HTTP route callback's answer is a body). */
export const RECEIVER_ANSWER_BYTES = 1024 * 1024;
