/**
 * @module block-mode
 * Block reduction for label ids: every output sample is the most frequent non-zero id of its
 * block of `factors[axis]` input samples (ties to the smallest id; 0 only when the whole block
 * is background). Averaging ids would invent ids that are no segment (the mean of 2 and 4 is
 * 3, someone else's cell); picking a member keeps every value an id of the input, and
 * preferring non-zero keeps a thin or small segment visible at coarse levels rather than
 * letting the background swallow it. Shared by the labels pyramid and `max_dim` deliveries of
 * labels. Reduces the last three axes; any axis before them (time, channels) must keep its
 * length (factor 1) and is walked as one 3-D volume per index.
 */
import { blockMeanShape } from './block-mean.ts';

/** The most frequent value of `values[0..n)` (n ≥ 1), ties to the smallest; sorts them in place. */
function modeOf(values: Float64Array, n: number): number {
  const first = values[0]!;
  let same = 1;
  while (same < n && values[same] === first) same++;
  if (same === n) return first;
  // Blocks are small (8 values for a pyramid level): insertion sort beats a typed sort's call.
  for (let i = 1; i < n; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
  let best = values[0]!;
  let bestCount = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && values[j] === values[i]) j++;
    if (j - i > bestCount) {
      bestCount = j - i;
      best = values[i]!;
    }
    i = j;
  }
  return best;
}

/** Modes of the 3-axis blocks of `data` from `from`, written to `out` from `to`. */
function mode3(data: ArrayLike<number>, from: number, shape: readonly number[], factors: readonly number[], out: { [i: number]: number }, to: number): void {
  const [nz, ny, nx] = shape as [number, number, number];
  const [fz, fy, fx] = factors as [number, number, number];
  const [oz, oy, ox] = blockMeanShape(shape, factors) as [number, number, number];
  const values = new Float64Array(fz * fy * fx);
  let o = to;
  for (let bz = 0; bz < oz; bz++) {
    const z0 = bz * fz;
    const z1 = Math.min(nz, z0 + fz);
    for (let by = 0; by < oy; by++) {
      const y0 = by * fy;
      const y1 = Math.min(ny, y0 + fy);
      for (let bx = 0; bx < ox; bx++) {
        const x0 = bx * fx;
        const x1 = Math.min(nx, x0 + fx);
        let n = 0;
        for (let z = z0; z < z1; z++) {
          for (let y = y0; y < y1; y++) {
            const row = from + (z * ny + y) * nx;
            for (let x = x0; x < x1; x++) {
              const v = data[row + x]!;
              if (v !== 0) values[n++] = v;
            }
          }
        }
        out[o++] = n === 0 ? 0 : modeOf(values, n);
      }
    }
  }
}

/**
 * Writes the block modes of `data` (C order, `shape`) into `out`, whose length is the product
 * of `blockMeanShape(shape, factors)`.
 * @throws Error when an axis before the last three would be reduced.
 */
export function blockMode(data: ArrayLike<number>, shape: readonly number[], factors: readonly number[], out: { [i: number]: number }): void {
  const lead = Math.max(0, shape.length - 3);
  if (factors.slice(0, lead).some((f) => f !== 1)) throw new Error('label blocks reduce only the last three axes');
  const pad = (list: readonly number[]): number[] => [...new Array<number>(3 - Math.min(3, list.length)).fill(1), ...list.slice(lead)];
  const shape3 = pad(shape);
  const factors3 = pad(factors);
  const steps = shape.slice(0, lead).reduce((a, b) => a * b, 1);
  const inSize = shape3.reduce((a, b) => a * b, 1);
  const outSize = blockMeanShape(shape3, factors3).reduce((a, b) => a * b, 1);
  for (let step = 0; step < steps; step++) mode3(data, step * inSize, shape3, factors3, out, step * outSize);
}
