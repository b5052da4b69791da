/**
 * @module seeded-random
 * A seeded random number source (mulberry32) for tests and benches that pick random moments:
 * the same seed gives the same schedule, so a failing run can be run again.
 */

/** Numbers in [0, 1), the same sequence for the same `seed`. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
