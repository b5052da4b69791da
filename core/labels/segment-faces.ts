/**
 * @module segment-faces
 * How large a segment's surface will be, counted before it is made: surface nets
 * (segment-surface.ts) give two triangles for every face between a voxel of the label and one
 * that is not (the volume's outside counting as not), so counting those faces tells a surface's
 * triangles exactly, in one pass over the label's box with no mesh held.
 */

/** The faces between voxels equal to `id` and the rest, within `box` (first z, y, x then last) of `data` (`shape` [nz, ny, nx]). */
export function segmentFaces(data: ArrayLike<number>, shape: readonly number[], id: number, box: ArrayLike<number>): number {
  const [nz, ny, nx] = shape as [number, number, number];
  const [z0, y0, x0, z1, y1, x1] = Array.from(box) as [number, number, number, number, number, number];
  const slice = ny * nx;
  let faces = 0;
  for (let z = z0; z <= z1; z++) {
    for (let y = y0; y <= y1; y++) {
      const row = (z * ny + y) * nx;
      for (let x = x0; x <= x1; x++) {
        const at = row + x;
        if (data[at] !== id) continue;
        if (x === 0 || data[at - 1] !== id) faces++;
        if (x === nx - 1 || data[at + 1] !== id) faces++;
        if (y === 0 || data[at - nx] !== id) faces++;
        if (y === ny - 1 || data[at + nx] !== id) faces++;
        if (z === 0 || data[at - slice] !== id) faces++;
        if (z === nz - 1 || data[at + slice] !== id) faces++;
      }
    }
  }
  return faces;
}
