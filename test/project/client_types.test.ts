/**
 * The typed control client catches typos at compile time: `npm run typecheck` checks this file, and
 * each `@ts-expect-error` below fails the typecheck if the line under it compiles (a pattern naming
 * an operation the contract does not have, a method no route has, a delivery kind that does not
 * exist). The test itself runs the well-typed lines against a server.
 */
import { describe, expect, it } from 'vitest';
import {
  startDipswitch,
  VerificationError,
  type ApiSchemas,
  type CallPattern,
  type FaultRequest,
  type NearMiss,
  type OperationId,
} from 'dipswitch';

describe('the typed control client', () => {
  it("names operations and methods from the contract: 'listNumbrs' does not compile", async () => {
    const sim = await startDipswitch();
    try {
      const right: CallPattern = { match: { operation_id: 'listNumbers', method: 'GET' }, count: { at_most: 0 } };
      // @ts-expect-error: no operation of the contract is called listNumbrs
      const typo: CallPattern = { match: { operation_id: 'listNumbrs' }, count: { at_most: 0 } };
      // @ts-expect-error: FETCH is no method of a route
      const method: FaultRequest = { match: { method: 'FETCH' }, effect: { status: 503 } };
      // @ts-expect-error: a delivery kind the contract does not have
      await sim.deliveries.waitFor({ kind: 'evnt' }, { timeout: 1 }).catch(() => undefined);
      expect((await sim.requests.verify(right)).count).toBe(0);
      // what does not compile is refused by the server all the same, for a caller without types
      await expect(sim.requests.verify(typo)).rejects.toThrow(/Did you mean `listNumbers`/);
      await expect(sim.faults.add(method)).rejects.toThrow(/FETCH/);

      // the near misses of a failed verify are typed
      await sim.requests.verify({ match: { operation_id: 'listCarts' }, count: { exactly: 0 } });
      await fetch(`${sim.url}/api/v1/carts`, { headers: { authorization: `Bearer ${sim.keys.admin}` } });
      const failed = await sim.requests
        .verify({ match: { operation_id: 'listCarts', status: 201 }, count: { exactly: 1 } })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(VerificationError);
      const misses: NearMiss[] = (failed as VerificationError).nearMisses;
      expect(misses[0]?.differences).toEqual([{ field: 'status', expected: 201, actual: 200 }]);
      expect((failed as VerificationError).count).toBe(0);

      // the /api/v1 types come with the package
      const id: OperationId = 'checkoutCart';
      const cart: Pick<ApiSchemas['cart'], 'name'> = { name: 'launch' };
      expect([id, cart.name]).toEqual(['checkoutCart', 'launch']);
    } finally {
      await sim.close();
    }
  });
});
