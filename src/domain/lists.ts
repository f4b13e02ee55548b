/** Small list helpers for code that knows an index is in range and wants that said, not assumed. */

/** The item at `i`; a RangeError if there is none (a bug in the caller's arithmetic). */
export function at<T>(list: readonly T[], i: number): T {
  const item = list[i];
  if (item === undefined) throw new RangeError(`no item at ${i} of ${list.length}`);
  return item;
}

/**
 * Where `target` goes in `list`, sorted by `compare(item, target)`: after every item that sorts
 * before it, and after those that sort with it too when `after`.
 */
export function sortedIndex<T, K>(
  list: readonly T[],
  target: K,
  compare: (item: T, target: K) => number,
  after = true,
): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(at(list, mid), target);
    if (c < 0 || (after && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
