/**
 * The one way a test waits for something that happens on its own time (a delivery, a receipt, a
 * peer's notice, a process's output): `check` is asked again every 10 ms until it answers something
 * truthy, which is answered; past `timeoutMs` (generous: it matters only when the test fails) the
 * test fails, saying what it waited for and what it saw last.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what = 'the condition',
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
