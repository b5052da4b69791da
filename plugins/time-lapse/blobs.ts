/**
 * @module blobs
 * 3D Gaussians added into a cube of samples spanning [-1, 1] on each axis. The Gaussian
 * factorises per axis, so each blob costs one exponential per axis sample and one multiply per
 * voxel it reaches; a negative amplitude takes away (a difference of Gaussians makes a shell).
 */

export interface Blob {
  x: number;
  y: number;
  z: number;
  sigma: number;
  amplitude: number;
}

/** Adds `blob` into `field`, a `size`³ C-order cube over [-1, 1]³. */
export function addBlob(field: Float32Array, size: number, blob: Blob): void {
  const step = 2 / (size - 1);
  const k = -1 / (2 * blob.sigma * blob.sigma);
  const along = (centre: number) => Float64Array.from({ length: size }, (_, i) => Math.exp(k * (-1 + i * step - centre) ** 2));
  const fx = along(blob.x);
  const fy = along(blob.y);
  const fz = along(blob.z);
  for (let z = 0; z < size; z++) {
    const az = blob.amplitude * fz[z]!;
    if (Math.abs(az) < 1e-6) continue;
    for (let y = 0; y < size; y++) {
      const azy = az * fy[y]!;
      if (Math.abs(azy) < 1e-6) continue;
      const row = (z * size + y) * size;
      for (let x = 0; x < size; x++) field[row + x] = field[row + x]! + azy * fx[x]!;
    }
  }
}
