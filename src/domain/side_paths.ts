/**
 * What a side path does with a failure it cannot hand back. Each caught error on a side path is
 * either logged with what was lost (`lostWith`), or is the failure of a clean-up whose loss costs
 * nothing (`cleanupFailed`): the one way an error is dropped on purpose, so a reader sees which.
 */

/** Something that takes a warning (the logger's `warn`). */
export type Warn = (message: string) => void;

/** Logs the failure with what it lost: `.catch(lostWith(logger.warn, 'a journal entry of an SMPP exchange'))`. */
export const lostWith =
  (warn: Warn, what: string) =>
  (e: unknown): void =>
    warn(`${what} was lost: ${(e as Error)?.message ?? String(e)}`);

/**
 * A clean-up that failed costs nothing worth saying: a connection already gone (its ROLLBACK or end),
 * a promise settled only so that no rejection goes unheard (its own awaiter hears it). Named so it is
 * never mistaken for a lost error.
 */
export const cleanupFailed = (): void => undefined;
