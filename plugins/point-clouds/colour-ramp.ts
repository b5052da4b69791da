/**
 * @module colour-ramp
 * Colours points by a scalar: a piecewise-linear ramp between RGB stops, written as bytes.
 */

/** RGB stops (0..255), evenly spaced from the lowest to the highest value. */
export type Ramp = readonly (readonly [number, number, number])[];

/** Deep blue → cyan → white → orange: reads well on a dark background. */
export const EMBER: Ramp = [[40, 60, 180], [40, 170, 230], [235, 240, 255], [255, 170, 60], [230, 60, 40]];

/**
 * Maps every value of `scalars` through `ramp`, stretched between the 2nd and 98th
 * percentile so a few outliers do not wash out the colours.
 */
export function colourByScalar(scalars: Float32Array, ramp: Ramp): Uint8Array {
  const sorted = Float32Array.from(scalars).sort();
  const low = sorted[Math.floor(sorted.length * 0.02)] ?? 0;
  const high = sorted[Math.floor(sorted.length * 0.98)] ?? 1;
  const span = high - low || 1;
  const colours = new Uint8Array(scalars.length * 3);
  for (let i = 0; i < scalars.length; i++) {
    const t = Math.min(1, Math.max(0, (scalars[i]! - low) / span)) * (ramp.length - 1);
    const k = Math.min(ramp.length - 2, Math.floor(t));
    const f = t - k;
    const a = ramp[k]!, b = ramp[k + 1]!;
    colours[i * 3] = a[0] + (b[0] - a[0]) * f;
    colours[i * 3 + 1] = a[1] + (b[1] - a[1]) * f;
    colours[i * 3 + 2] = a[2] + (b[2] - a[2]) * f;
  }
  return colours;
}
