/**
 * @module value-range
 * The finite [min, max] of a volume's or a scalar field's samples: `value_range` in the
 * envelope preamble, and the colour-map range in the viewer. No Node-only APIs: the browser
 * viewer imports it too.
 */

/**
 * Finite [min, max] of the samples, or undefined when there is none. NaN samples are passed
 * over (every comparison with NaN is false). Two pairs of running bounds over alternate
 * samples let consecutive comparisons run side by side: a volume of 2^23 samples is scanned
 * on the event loop when it is uploaded.
 */
export function valueRange(data: ArrayLike<number>): [number, number] | undefined {
  let min0 = Infinity;
  let max0 = -Infinity;
  let min1 = Infinity;
  let max1 = -Infinity;
  const pairs = data.length - (data.length % 2);
  for (let i = 0; i < pairs; i += 2) {
    const a = data[i]!;
    const b = data[i + 1]!;
    min0 = a < min0 ? a : min0;
    max0 = a > max0 ? a : max0;
    min1 = b < min1 ? b : min1;
    max1 = b > max1 ? b : max1;
  }
  if (pairs < data.length) {
    const a = data[pairs]!;
    min0 = a < min0 ? a : min0;
    max0 = a > max0 ? a : max0;
  }
  const min = min0 < min1 ? min0 : min1;
  const max = max0 > max1 ? max0 : max1;
  return Number.isFinite(min) && Number.isFinite(max) ? [min, max] : undefined;
}
