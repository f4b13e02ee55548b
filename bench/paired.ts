/**
 * Ratios measured side by side (`BENCH_ONLY=ratios`, and in every full run): each pair's two servers
 * run in turn, one run of each per round, and each round gives its own ratio; the median is kept.
 * On a shared machine whose speed drifts by a third within minutes, a ratio of two figures taken
 * minutes apart says more about the drift than about dipswitch; two taken seconds apart do not.
 */
import autocannon from 'autocannon';
import { CONNECTIONS, median, WARMUP_S } from './harness.js';

/** Rounds, and seconds a run: more and shorter runs than the other rows, so a burst of the machine's sits in few of them. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_S = Number(process.env.BENCH_ROUND_SECONDS ?? 3);

/** The ratio `b / a` of two request shapes' rates (each on its own server, already started). */
export interface Pair {
  name: string;
  a: autocannon.Options;
  b: autocannon.Options;
}

export interface PairedRatio {
  name: string;
  ratio: number;
  /** Each round's ratio, in order. */
  rounds: number[];
}

async function rate(opts: autocannon.Options, seconds: number): Promise<number> {
  const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0) console.warn(`  ${String(opts.url)}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

/** Every pair's ratio: a warm-up of each shape, then ROUNDS rounds of one run of `a` and one of `b` per pair. */
export async function pairedRatios(pairs: Pair[]): Promise<PairedRatio[]> {
  for (const p of pairs) {
    await rate(p.a, WARMUP_S);
    await rate(p.b, WARMUP_S);
  }
  const rounds = pairs.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, p] of pairs.entries()) {
      const a = await rate(p.a, ROUND_S);
      const b = await rate(p.b, ROUND_S);
      rounds[i]?.push(b / a);
    }
  return pairs.map((p, i) => {
    const mine = rounds[i] ?? [];
    const result = { name: p.name, ratio: median(mine), rounds: mine };
    console.log(`  ${p.name}: ${result.ratio.toFixed(2)} (rounds ${mine.map((r) => r.toFixed(2)).join(', ')})`);
    return result;
  });
}
