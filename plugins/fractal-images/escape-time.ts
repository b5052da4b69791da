/**
 * @module escape-time
 * The escape-time loop shared by the Mandelbrot and Julia sets: iterate z → z² + c and return
 * a smooth (fractional) iteration count, or -1 when z stays bounded.
 */

/**
 * Iterates from z = (zx, zy) with constant c = (cx, cy) for at most `limit` steps.
 * @returns The smoothed escape count (continuous across bands), or -1 if it never escapes.
 */
export function escapeCount(zx: number, zy: number, cx: number, cy: number, limit: number): number {
  let x = zx, y = zy, x2 = x * x, y2 = y * y;
  for (let n = 0; n < limit; n++) {
    if (x2 + y2 > 256) {
      // Normalised iteration count: removes the banding of the integer count.
      return n + 1 - Math.log2(Math.log2(x2 + y2) / 2);
    }
    y = 2 * x * y + cy;
    x = x2 - y2 + cx;
    x2 = x * x;
    y2 = y * y;
  }
  return -1;
}

/** True inside the main cardioid or the period-2 bulb, which never escape (skips the loop). */
export function inMandelbrotInterior(cx: number, cy: number): boolean {
  const q = (cx - 0.25) ** 2 + cy * cy;
  return q * (q + (cx - 0.25)) <= 0.25 * cy * cy || (cx + 1) ** 2 + cy * cy <= 1 / 16;
}
