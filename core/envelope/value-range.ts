/**
 * @module value-range
 * The finite [min, max] of a volume's or a scalar field's samples: `value_range` in the
 * envelope preamble, and the colour-map range in the viewer. No Node-only APIs: the browser
 * viewer imports it too.
 */

/** Finite [min, max] of the samples, or undefined when there is none. */
export function valueRange(data: ArrayLike<number>): [number, number] | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return Number.isFinite(min) && Number.isFinite(max) ? [min, max] : undefined;
}
