/**
 * @module seeded-random
 * A small deterministic random generator (mulberry32), so a specimen is the same for the
 * same parameters and results can be cached.
 */

/** Returns a generator of floats in [0, 1) fully determined by `seed`. */
export function seededRandom(seed: number): () => number {
  let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
