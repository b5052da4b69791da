/**
 * @module block-mean
 * Block averaging of a C-order array: every output sample is the mean of a block of
 * `factors[axis]` input samples along each axis (a partial block at an edge averages what it
 * has). Shared by `max_dim` deliveries and the OME-Zarr pyramid levels. Arrays of up to three
 * axes (the usual volume) take a row kernel that reads each input sample once, in order; other
 * ranks take the general walk.
 */

/** The output shape: each axis divided by its factor, rounded up. */
export function blockMeanShape(shape: readonly number[], factors: readonly number[]): number[] {
  return shape.map((n, axis) => Math.ceil(n / factors[axis]!));
}

/** Means of 3-axis blocks, one output row at a time, into `out` (length of the output). */
function mean3(data: ArrayLike<number>, shape: readonly number[], factors: readonly number[], out: { [i: number]: number }, round: boolean): void {
  const [nz, ny, nx] = shape as [number, number, number];
  const [fz, fy, fx] = factors as [number, number, number];
  const [oz, oy, ox] = blockMeanShape(shape, factors) as [number, number, number];
  const row = new Float64Array(ox);
  // How many samples each output column's block has along x (the last one may be short).
  const widths = new Float64Array(ox);
  for (let x = 0; x < ox; x++) widths[x] = Math.min(fx, nx - x * fx);
  // The output column of each input column (a table: no division per sample).
  const column = new Uint32Array(nx);
  for (let x = 0; x < nx; x++) column[x] = Math.floor(x / fx);
  let o = 0;
  for (let bz = 0; bz < oz; bz++) {
    const z0 = bz * fz;
    const z1 = Math.min(nz, z0 + fz);
    for (let by = 0; by < oy; by++) {
      const y0 = by * fy;
      const y1 = Math.min(ny, y0 + fy);
      row.fill(0);
      for (let z = z0; z < z1; z++) {
        for (let y = y0; y < y1; y++) {
          let i = (z * ny + y) * nx;
          if (fx === 1) {
            for (let x = 0; x < nx; x++) row[x]! += data[i++]!;
          } else if (fx === 2) {
            const pairs = nx >> 1;
            for (let x = 0; x < pairs; x++, i += 2) row[x]! += data[i]! + data[i + 1]!;
            if (nx & 1) row[pairs]! += data[i]!;
          } else {
            for (let x = 0; x < nx; x++) row[column[x]!]! += data[i++]!;
          }
        }
      }
      const rows = (z1 - z0) * (y1 - y0);
      for (let x = 0; x < ox; x++) {
        const mean = row[x]! / (rows * widths[x]!);
        out[o++] = round ? Math.round(mean) : mean;
      }
    }
  }
}

/** Means of blocks for any rank: each input sample is added to its block's sum. */
function meanAny(data: ArrayLike<number>, shape: readonly number[], factors: readonly number[], out: { [i: number]: number }, round: boolean): void {
  const outShape = blockMeanShape(shape, factors);
  const total = outShape.reduce((a, b) => a * b, 1);
  const sums = new Float64Array(total);
  const counts = new Uint32Array(total);
  const rank = shape.length;
  const index = new Array<number>(rank).fill(0);
  for (let i = 0; i < data.length; i++) {
    let o = 0;
    for (let axis = 0; axis < rank; axis++) o = o * outShape[axis]! + Math.floor(index[axis]! / factors[axis]!);
    sums[o]! += data[i]!;
    counts[o]! += 1;
    for (let axis = rank - 1; axis >= 0; axis--) {
      if (++index[axis]! < shape[axis]!) break;
      index[axis] = 0;
    }
  }
  for (let o = 0; o < total; o++) out[o] = round ? Math.round(sums[o]! / counts[o]!) : sums[o]! / counts[o]!;
}

/**
 * Writes the block means of `data` into `out` (whose length is the product of
 * `blockMeanShape`), rounded to the nearest integer when `round` (an integer output type).
 */
export function blockMean(data: ArrayLike<number>, shape: readonly number[], factors: readonly number[], out: { [i: number]: number }, round = false): void {
  if (shape.length <= 3) {
    const pad = 3 - shape.length;
    mean3(data, [...new Array<number>(pad).fill(1), ...shape], [...new Array<number>(pad).fill(1), ...factors], out, round);
  } else {
    meanAny(data, shape, factors, out, round);
  }
}

/** Averages blocks so every axis has at most `maxDim` samples (a partial edge block averages what it has). */
export function averageBlocks(data: ArrayLike<number>, shape: readonly number[], maxDim: number): { data: Float64Array; shape: number[]; factors: number[] } {
  const factors = shape.map((n) => Math.max(1, Math.ceil(n / maxDim)));
  const out = blockMeanShape(shape, factors);
  const means = new Float64Array(out.reduce((a, b) => a * b, 1));
  blockMean(data, shape, factors, means);
  return { data: means, shape: out, factors };
}
