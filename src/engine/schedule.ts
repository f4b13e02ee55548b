/** The scheduler's vocabulary: what a step did, what runs one, what the scheduler is built from. */
import type { Logger } from '../deps.js';
import type { StepKind, StepRow } from '../domain/rows.js';
import type { Store } from '../store/store.js';
import type { Clocks } from './clock.js';
import type { DeliveryWorker } from './deliveries.js';
import type { Claims } from './claims.js';
import type { Work, WorkRunner } from './work.js';
import type { Tracing, WorkSpan } from '../observability/tracing.js';

/** The account's next step is further ahead than an advance to it may go: it is at `at`, `ms` ahead. */
export class NextTooFar extends Error {
  constructor(
    readonly at: string,
    readonly ms: number,
  ) {
    super(`the next step is at ${at}`);
  }
}

/** What a step did, as `advance` reports it. */
export interface Fired {
  at: string;
  kind: StepKind;
  ref: string;
  what: string;
}

/** Runs one due step inside its unit of work; answers what it did. */
export type Runner = (step: StepRow, work: Work) => Promise<string>;

export interface SchedulerOptions {
  store: Store;
  clocks: Clocks;
  logger: Logger;
  deliveries: DeliveryWorker;
  runners: Record<Exclude<StepKind, 'delivery'>, Runner>;
  /** Runs a step's unit of work with its Work (the runner every unit of work goes through). */
  runner: WorkRunner;
  /** Steps another instance is running (over a shared store). */
  claims: Claims;
  /** A span for every lifecycle step (NO_TRACES: none). */
  tracing: Pick<Tracing, 'within'>;
  /** Called with each step run here, once it ran (the journal keeps it: the dashboard's timeline). */
  ran?(accountId: string, fired: Fired): Promise<void>;
  /** Wall time and a timer on it; injected so nothing here reads time itself. */
  wall(): number;
  setTimer(fn: () => void, ms: number): { cancel(): void };
}

/** A lifecycle step's span: tied to the call that scheduled it, and the cause of what it makes (docs/observability.md). */
export const stepSpan = (step: StepRow): WorkSpan => ({
  name: `step ${step.data.kind}`,
  kind: 'internal',
  cause: step.cause ?? null,
  causes: true,
  attributes: {
    'dipswitch.step.kind': step.data.kind,
    'dipswitch.step.ref': step.data.ref,
    'dipswitch.account_id': step.account_id,
    'dipswitch.clock.at': step.data.at,
  },
});
