/**
 * @module first-non-finite
 * Finds a NaN or an infinity among many numbers (a volume's samples, a mesh's vertices). The
 * scan runs on the event loop for uploads, so it is built for speed: `v - v` is 0 for every
 * finite number and NaN otherwise, and four independent sums of it need neither a branch nor
 * a call per value. Only when a sum comes out NaN is the array searched again for the index.
 */

/** The index of the first value that is not a finite number, or -1 when every one is. */
export function firstNonFinite(values: ArrayLike<number>): number {
  const n = values.length;
  const whole = n - (n % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = values[i]!;
    const b = values[i + 1]!;
    const c = values[i + 2]!;
    const d = values[i + 3]!;
    s0 += a - a;
    s1 += b - b;
    s2 += c - c;
    s3 += d - d;
  }
  for (let i = whole; i < n; i++) s0 += values[i]! - values[i]!;
  if (s0 + s1 + s2 + s3 === 0) return -1;
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i])) return i;
  return -1;
}
