/**
 * The provider's retry schedule for a delivery that failed (interface.md section 8): after 1 min,
 * 5 min, 30 min, 2 h and 6 h on the account's clock; then it has failed for good.
 */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
/** The wait after the last in the schedule, should a delivery be tried once more. */
export const LAST_BACKOFF_MS = 6 * 3600_000;
