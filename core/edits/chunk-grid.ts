/**
 * @module chunk-grid
 * A volume cut into chunks of one side (the last along each axis may be shorter): which chunk
 * holds a voxel, where in it, and a chunk's box. Voxels are named by their flat index in C order
 * (z, y, x).
 */
export class ChunkGrid {
  readonly shape: readonly [number, number, number];
  readonly chunk: number;
  /** Chunks along z, y, x. */
  readonly grid: readonly [number, number, number];

  constructor(shape: readonly [number, number, number], chunk: number) {
    this.shape = shape;
    this.chunk = chunk;
    this.grid = [Math.ceil(shape[0] / chunk), Math.ceil(shape[1] / chunk), Math.ceil(shape[2] / chunk)];
  }

  /** The chunk holding voxel (z, y, x). */
  chunkOf(z: number, y: number, x: number): number {
    const c = this.chunk;
    return (Math.floor(z / c) * this.grid[1] + Math.floor(y / c)) * this.grid[2] + Math.floor(x / c);
  }

  /** A chunk's first z, y, x and its ends (exclusive). */
  chunkBox(key: number): [number, number, number, number, number, number] {
    const [, gy, gx] = this.grid;
    const c = this.chunk;
    const [z, y, x] = [Math.floor(key / (gx * gy)) * c, (Math.floor(key / gx) % gy) * c, (key % gx) * c];
    return [z, y, x, Math.min(z + c, this.shape[0]), Math.min(y + c, this.shape[1]), Math.min(x + c, this.shape[2])];
  }

  /** Voxel (z, y, x)'s place in its chunk. */
  protected inChunk(z: number, y: number, x: number): number {
    const c = this.chunk;
    return ((z % c) * c + (y % c)) * c + (x % c);
  }

  /** Where voxel `i` (a flat index of the volume) lies: its chunk and its place in the chunk. */
  placeOf(i: number): { key: number; at: number } {
    const [, ny, nx] = this.shape;
    const x = i % nx;
    const y = Math.floor(i / nx) % ny;
    const z = Math.floor(i / (nx * ny));
    return { key: this.chunkOf(z, y, x), at: this.inChunk(z, y, x) };
  }
}
