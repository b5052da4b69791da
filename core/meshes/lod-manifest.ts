/**
 * @module lod-manifest
 * A surface's manifest (`{segment}.index`) in Neuroglancer's multi-resolution mesh format, all
 * little-endian: the finest cell's shape and the grid's origin (3 float32 each), the number of
 * levels (uint32), each level's scale (float32) and vertex offset (3 float32, none here), the
 * fragments of each level (uint32), then per level its fragments' x, y and z cell positions
 * (all x, then all y, then all z; uint32, in Z-curve order) and the byte size of each one's
 * Draco data (uint32), whose sum from the start gives where each begins in `{segment}`.
 */

export interface ManifestLevel {
  /** The level's scale: about the length of its triangles' edges, in stored model units. */
  scale: number;
  /** Each fragment's cell (x, y, z). */
  cells: [number, number, number][];
  /** Each fragment's bytes in the fragment data file. */
  sizes: number[];
}

export function encodeManifest(chunk: readonly number[], origin: readonly number[], levels: readonly ManifestLevel[]): Uint8Array {
  const fragments = levels.reduce((n, level) => n + level.cells.length, 0);
  const bytes = new Uint8Array(28 + levels.length * 20 + fragments * 16);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const f32 = (v: number) => {
    view.setFloat32(at, v, true);
    at += 4;
  };
  const u32 = (v: number) => {
    view.setUint32(at, v, true);
    at += 4;
  };
  chunk.forEach(f32);
  origin.forEach(f32);
  u32(levels.length);
  for (const level of levels) f32(level.scale);
  for (let i = 0; i < levels.length * 3; i++) f32(0);
  for (const level of levels) u32(level.cells.length);
  for (const level of levels) {
    for (let k = 0; k < 3; k++) for (const cell of level.cells) u32(cell[k]!);
    for (const size of level.sizes) u32(size);
  }
  return bytes;
}
