/**
 * A step row put on an account's schedule from a unit of work (the delivery worker's retries): what the
 * scheduler runs, when, and for which record. A Work schedules its own through its outbox (outbox.ts `schedule`).
 */
import type { StepKind } from '../domain/rows.js';
import type { UnitOfWork } from '../store/store.js';

export interface NewStep {
  id: string;
  kind: StepKind;
  /** The record the step works on (an order, a task, a delivery). */
  ref: string;
  /** When it falls due on the account's clock, in ms. */
  atMs: number;
  /** The account's clock now (ISO 8601). */
  now: string;
}

/** Puts a step on the account's schedule, in the unit of work `w`. */
export async function putStep(w: UnitOfWork, accountId: string, step: NewStep): Promise<void> {
  await w.steps.insert({
    account_id: accountId,
    seq: await w.nextSeq(),
    data: { id: step.id, inserted_at: step.now, at: new Date(step.atMs).toISOString(), kind: step.kind, ref: step.ref },
  });
}
