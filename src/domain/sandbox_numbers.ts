/**
 * The provider's numbers for sandboxes: sandbox k gets the ten lines +1 399 NXX LLL0..LLL9 of block k
 * (NPA 399 is an N9X code, reserved by the NANP for expansion and never assigned, so a sandbox number
 * is never a real one): 800 exchanges of 1,000 blocks.
 */

export const SANDBOX_NPA = '399';
/** Blocks of ten numbers in NPA 399: exchanges 200 to 999, a thousand blocks each. */
export const SANDBOX_BLOCKS = 800 * 1_000;

/** The ten numbers of block `k`. */
export function sandboxNumbers(k: number): string[] {
  const exchange = 200 + Math.floor(k / 1_000);
  const line = (k % 1_000) * 10;
  return Array.from({ length: 10 }, (_, i) => `+1${SANDBOX_NPA}${exchange}${String(line + i).padStart(4, '0')}`);
}
