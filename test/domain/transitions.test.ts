/** The lifecycle tables (src/domain/transitions.ts): moves, terminal states, timed steps. */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract.js';
import {
  assertMove,
  BULK_DIP_FIRST,
  bulkDipSteps,
  DOCUMENT_EDITABLE,
  ORDER_FIRST,
  orderSteps,
  orderTransitions,
  requestTransitions,
} from '../../src/domain/transitions.js';

const enumOf = (name: string): string[] =>
  (loadContract().document as { components: { schemas: Record<string, { enum?: string[] }> } }).components.schemas[name]
    ?.enum ?? [];

/** Every status reachable from `start` through the table. */
function reachable<S extends string>(table: Record<S, S[]>, start: S): Set<S> {
  const seen = new Set<S>([start]);
  for (const s of seen) for (const next of table[s]) seen.add(next);
  return seen;
}

describe('the lifecycle tables', () => {
  it('name every status of the contract, and only those', () => {
    expect(Object.keys(orderTransitions).sort()).toEqual(enumOf('order_status').sort());
    expect(Object.keys(requestTransitions).sort()).toEqual(enumOf('request_status').sort());
  });

  it('reach every status from NEW, and end only in COMPLETED and CANCELLED (and ERROR for orders)', () => {
    expect(reachable(orderTransitions, 'NEW').size).toBe(Object.keys(orderTransitions).length);
    expect(reachable(requestTransitions, 'NEW').size).toBe(Object.keys(requestTransitions).length);
    const terminal = <S extends string>(t: Record<S, S[]>) =>
      (Object.keys(t) as S[]).filter((s) => !t[s].length).sort();
    expect(terminal(orderTransitions)).toEqual(['CANCELLED', 'COMPLETED', 'ERROR']);
    expect(terminal(requestTransitions)).toEqual(['CANCELLED', 'COMPLETED']);
  });

  it('allow a move the table has, and refuse one it lacks', () => {
    expect(assertMove(orderTransitions, 'NEW', 'PROCESSING')).toBe('PROCESSING');
    expect(() => assertMove(orderTransitions, 'COMPLETED', 'PROCESSING')).toThrow(/COMPLETED to PROCESSING/);
    expect(() => assertMove(requestTransitions, 'NEW', 'COMPLETED')).toThrow();
  });

  it('let documents change only in the statuses the spec names', () => {
    expect([...DOCUMENT_EDITABLE].sort()).toEqual(['AUTHOR_REVIEW', 'ERROR', 'MANUAL', 'NEW', 'REVIEW']);
  });

  it('time a bulk dip NEW → PROCESSING → STORING → DELIVERING → COMPLETED, longer for more numbers', () => {
    const path: string[] = ['NEW'];
    for (let step = BULK_DIP_FIRST; ;) {
      path.push(step.next);
      const next = bulkDipSteps[step.next];
      if (!next) break;
      step = next;
    }
    expect(path).toEqual(['NEW', 'PROCESSING', 'STORING', 'DELIVERING', 'COMPLETED']);
    const processing = bulkDipSteps.PROCESSING!;
    expect(processing.afterMs(1_000)).toBeGreaterThan(processing.afterMs(1));
  });

  it('time an order NEW → PROCESSING → COMPLETED, longer for more requests', () => {
    expect(ORDER_FIRST.next).toBe('PROCESSING');
    const processing = orderSteps.PROCESSING!;
    expect(processing.next).toBe('COMPLETED');
    expect(processing.afterMs(10)).toBeGreaterThan(processing.afterMs(1));
    for (const [from, step] of Object.entries(orderSteps))
      expect(orderTransitions[from as keyof typeof orderTransitions], from).toContain(step!.next);
  });
});
