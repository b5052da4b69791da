/**
 * @module value-range
 * The finite [min, max] of a volume's or a scalar field's samples: `value_range` in the
 * envelope preamble, and the colour-map range in the viewer. No Node-only APIs: the browser
 * viewer imports it too.
 */

/**
 * Finite [min, max] of the samples, or undefined when there is none. NaN samples are passed
 * over. A volume of 2^23 samples is scanned on the event loop when it is uploaded, so the
 * common case is made fast: Math.min/Math.max over two pairs of running bounds compile to
 * branch-free instructions, but let a NaN through; only then is the scan made again,
 * comparing (every comparison with NaN is false, so NaN is passed over).
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
    min0 = Math.min(min0, a);
    max0 = Math.max(max0, a);
    min1 = Math.min(min1, b);
    max1 = Math.max(max1, b);
  }
  if (pairs < data.length) {
    min0 = Math.min(min0, data[pairs]!);
    max0 = Math.max(max0, data[pairs]!);
  }
  let min = Math.min(min0, min1);
  let max = Math.max(max0, max1);
  if (Number.isNaN(min)) [min, max] = boundsPassingNaN(data);
  return Number.isFinite(min) && Number.isFinite(max) ? [min, max] : undefined;
}

function boundsPassingNaN(data: ArrayLike<number>): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}
