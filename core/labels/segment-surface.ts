/**
 * @module segment-surface
 * The surface of one label of a segmentation, by surface nets over its binary mask: every
 * 2×2×2 cell of voxel centres whose corners are not all inside or all outside gets one vertex
 * (the mean of the midpoints of its edges that cross the boundary), and every pair of
 * neighbouring voxels of which exactly one is inside gets a quad joining the four cells
 * around it, wound so its normal points out of the label. The result is closed (every edge is
 * shared by two quads, or four where two parts of the label touch at an edge) and encloses
 * about the label's voxels: a flat face lies half a voxel past the last centre inside, as the
 * voxels' own faces do, and edges and corners are bevelled. Only the label's bounding box
 * (plus one voxel) is visited, two slices of cells at a time, so the memory is that of two
 * slices whatever the label's size. Positions are physical: voxel (z, y, x) sits at
 * `origin + index × spacing` (C order), and the mesh's x, y, z are the volume's x, y, z.
 */
import type { MeshBuilder } from '../geometry/mesh-builder.ts';

/** Where the voxels are: C-order spacing and origin ([z, y, x]). */
export interface VoxelFrame {
  spacing: readonly [number, number, number];
  origin: readonly [number, number, number];
}

/** Corner c of a cell has offsets (c >> 2 & 1, c >> 1 & 1, c & 1) along z, y, x. */
const EDGES: readonly [number, number][] = [
  [0, 1], [2, 3], [4, 5], [6, 7], // along x
  [0, 2], [1, 3], [4, 6], [5, 7], // along y
  [0, 4], [1, 5], [2, 6], [3, 7], // along z
];

/** For each of the 256 corner masks, the vertex's offset in its cell (z, y, x). */
const CENTROIDS: Float32Array = (() => {
  const table = new Float32Array(256 * 3);
  for (let mask = 1; mask < 255; mask++) {
    let z = 0, y = 0, x = 0, n = 0;
    for (const [a, b] of EDGES) {
      if (((mask >> a) & 1) === ((mask >> b) & 1)) continue;
      z += (((a >> 2) & 1) + ((b >> 2) & 1)) / 2;
      y += (((a >> 1) & 1) + ((b >> 1) & 1)) / 2;
      x += ((a & 1) + (b & 1)) / 2;
      n++;
    }
    table.set([z / n, y / n, x / n], mask * 3);
  }
  return table;
})();

/**
 * Adds the surface of voxels equal to `id` to `out`. `shape` is [nz, ny, nx] of `data`;
 * `box` the label's first and last z, y, x (label-index.ts): nothing outside it is read.
 */
export function addSegmentSurface(
  data: ArrayLike<number>,
  shape: readonly number[],
  id: number,
  box: ArrayLike<number>,
  frame: VoxelFrame,
  out: MeshBuilder,
): void {
  const [, ny, nx] = shape as [number, number, number];
  const [z0, y0, x0, z1, y1, x1] = Array.from(box) as [number, number, number, number, number, number];
  // The padded grid: sample (s, b, c) is voxel (z0 - 1 + s, y0 - 1 + b, x0 - 1 + c).
  const dz = z1 - z0 + 1,
    dy = y1 - y0 + 1,
    dx = x1 - x0 + 1;
  const rowLength = dx + 2;
  const sliceSize = (dy + 2) * rowLength;
  const cellRow = dx + 1;
  const cellSlice = (dy + 1) * cellRow;
  let lower = new Uint8Array(sliceSize);
  let upper = new Uint8Array(sliceSize);
  let before = new Int32Array(cellSlice).fill(-1);
  let cells = new Int32Array(cellSlice).fill(-1);
  const [sz, sy, sx] = frame.spacing;
  const [oz, oy, ox] = frame.origin;
  // A mirrored frame turns every face inside out unless the winding is mirrored too.
  const flip = sz * sy * sx < 0;
  const quad = (inside: boolean, a: number, b: number, c: number, d: number): void => {
    if (a < 0 || b < 0 || c < 0 || d < 0) return;
    if (inside !== flip) {
      out.triangle(a, b, c);
      out.triangle(a, c, d);
    } else {
      out.triangle(a, c, b);
      out.triangle(a, d, c);
    }
  };
  const fill = (slice: Uint8Array, s: number): void => {
    slice.fill(0);
    if (s < 1 || s > dz) return;
    const z = z0 - 1 + s;
    for (let b = 1; b <= dy; b++) {
      const row = (z * ny + y0 - 1 + b) * nx + x0 - 1;
      const at = b * rowLength;
      for (let c = 1; c <= dx; c++) if (data[row + c] === id) slice[at + c] = 1;
    }
  };
  fill(upper, 0);
  for (let s = 0; s <= dz; s++) {
    [lower, upper] = [upper, lower];
    fill(upper, s + 1);
    [before, cells] = [cells, before];
    cells.fill(-1);
    // Vertices of the cells between slices s and s + 1.
    for (let b = 0; b <= dy; b++) {
      for (let c = 0; c <= dx; c++) {
        const i = b * rowLength + c;
        const mask =
          lower[i]! |
          (lower[i + 1]! << 1) |
          (lower[i + rowLength]! << 2) |
          (lower[i + rowLength + 1]! << 3) |
          (upper[i]! << 4) |
          (upper[i + 1]! << 5) |
          (upper[i + rowLength]! << 6) |
          (upper[i + rowLength + 1]! << 7);
        if (mask === 0 || mask === 255) continue;
        const t = mask * 3;
        const z = oz + (z0 - 1 + s + CENTROIDS[t]!) * sz;
        const y = oy + (y0 - 1 + b + CENTROIDS[t + 1]!) * sy;
        const x = ox + (x0 - 1 + c + CENTROIDS[t + 2]!) * sx;
        cells[b * cellRow + c] = out.vertex(x, y, z);
      }
    }
    // Quads across z between slices s and s + 1 (normal +z when inside below): cells of this layer.
    for (let b = 1; b <= dy; b++) {
      for (let c = 1; c <= dx; c++) {
        const i = b * rowLength + c;
        if (lower[i] === upper[i]) continue;
        const k = b * cellRow + c;
        quad(lower[i] === 1, cells[k]!, cells[k - 1]!, cells[k - cellRow - 1]!, cells[k - cellRow]!);
      }
    }
    if (s === 0) continue;
    // Quads across x and y inside slice s: cells of this layer and the one before.
    for (let b = 1; b <= dy; b++) {
      for (let c = 0; c <= dx; c++) {
        const i = b * rowLength + c;
        const k = b * cellRow + c;
        if (lower[i] !== lower[i + 1]) quad(lower[i] === 1, cells[k]!, cells[k - cellRow]!, before[k - cellRow]!, before[k]!);
      }
    }
    for (let b = 0; b <= dy; b++) {
      for (let c = 1; c <= dx; c++) {
        const i = b * rowLength + c;
        const k = b * cellRow + c;
        if (lower[i] !== lower[i + rowLength]) quad(lower[i] === 1, cells[k]!, before[k]!, before[k - 1]!, cells[k - 1]!);
      }
    }
  }
}
