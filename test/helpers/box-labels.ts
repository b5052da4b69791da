/**
 * @module box-labels
 * Test helper: a small uint32 segmentation of axis-aligned boxes over background, placed by a
 * seeded random (the same seed gives the same volume), as the editing tests build their layers.
 */
import { seededRandom } from './seeded-random.ts';

/**
 * A C-order volume of `shape` ([z, y, x]) holding `count` boxes, ids 1 to `count` in turn (a
 * later one over an earlier), each of `size` ([z, y, x]) voxels from a random corner, cut at the
 * grid's faces.
 */
export function boxLabels(shape: readonly [number, number, number], seed: number, count: number, size: readonly [number, number, number]): Uint32Array {
  const [nz, ny, nx] = shape;
  const rand = seededRandom(seed);
  const data = new Uint32Array(nz * ny * nx);
  for (let id = 1; id <= count; id++) {
    const [z0, y0, x0] = [Math.floor(rand() * nz), Math.floor(rand() * ny), Math.floor(rand() * nx)];
    for (let z = z0; z < Math.min(nz, z0 + size[0]); z++)
      for (let y = y0; y < Math.min(ny, y0 + size[1]); y++)
        for (let x = x0; x < Math.min(nx, x0 + size[2]); x++) data[(z * ny + y) * nx + x] = id;
  }
  return data;
}
