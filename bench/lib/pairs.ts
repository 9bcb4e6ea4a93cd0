import { percentile } from './stats.js';

/** Wall time of one call, in ms. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Times `a` (the API) and `b` (the hand-written script) in `pairs` pairs, alternating which goes first,
 * each run after `before` (e.g. until the browser pool is idle), so drift on the machine and the order
 * weigh on both alike. Medians of each side, and the median of the ratio within each pair.
 */
export async function interleavedPairs(
  pairs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  before: () => Promise<void>,
): Promise<{ a: number[]; b: number[]; medianA: number; medianB: number; pairedRatio: number }> {
  const aMs: number[] = [];
  const bMs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    for (const which of i % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const)) {
      await before();
      if (which === 'a') aMs.push(await timed(a));
      else bMs.push(await timed(b));
    }
  }
  return {
    a: aMs,
    b: bMs,
    medianA: percentile(aMs, 50),
    medianB: percentile(bMs, 50),
    pairedRatio: percentile(
      aMs.map((x, i) => x / bMs[i]!),
      50,
    ),
  };
}
