/**
 * @module sampled-field
 * A scalar field sampled on a regular grid (x fastest, then y, then z), and the slab-by-slab
 * sampler that fills it.
 */

/** Grid samples plus the grid's placement in world space. */
export interface SampledField {
  /** `nx * ny * nz` samples, x fastest. */
  values: Float32Array;
  dims: [number, number, number];
  /** World position of sample (0, 0, 0). */
  origin: [number, number, number];
  /** World distance between neighbouring samples along x, y, z. */
  spacing: [number, number, number];
}

/** The field's value at a world position. */
export type FieldFunction = (x: number, y: number, z: number) => number;

/**
 * Samples `field` on an `n`³ grid spanning the cube [min, max]³, one z slab at a time;
 * `afterSlab(z)` runs after each slab (report progress, yield, check for cancellation).
 */
export async function sampleField(
  field: FieldFunction,
  n: number,
  min: number,
  max: number,
  afterSlab: (z: number) => Promise<void>,
): Promise<SampledField> {
  const step = (max - min) / (n - 1);
  const values = new Float32Array(n * n * n);
  for (let z = 0; z < n; z++) {
    const wz = min + z * step;
    let i = z * n * n;
    for (let y = 0; y < n; y++) {
      const wy = min + y * step;
      for (let x = 0; x < n; x++) values[i++] = field(min + x * step, wy, wz);
    }
    await afterSlab(z);
  }
  return { values, dims: [n, n, n], origin: [min, min, min], spacing: [step, step, step] };
}
