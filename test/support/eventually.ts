/**
 * The one way a test waits for something that happens on its own time (a delivery, a receipt, a
 * peer's notice, a process's output): vitest's `vi.waitFor`, asking `check` again every 10 ms until it
 * answers something truthy, which is answered; past `timeoutMs` (generous: it matters only when the
 * test fails) the test fails, saying what it waited for and what it saw last.
 */
import { vi } from 'vitest';

export function eventually<T>(
  check: () => T | Promise<T>,
  what = 'the condition',
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  return vi.waitFor(
    async () => {
      const last = await check();
      if (!last) throw new Error(`waited ${timeoutMs} ms for ${what}; last seen: ${JSON.stringify(last)}`);
      return last as NonNullable<T>;
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
