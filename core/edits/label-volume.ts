/**
 * @module label-volume
 * A labels volume as edits see it: the base result's bytes, never written, with the chunks an edit
 * changed held apart (each at most CHUNK voxels a side), so memory grows by the changed chunks, not
 * by the volume. Voxels are named by their flat index in C order (z, y, x) of level 0. Beside the
 * voxels it keeps each segment's place (segment-places.ts). It hands out frozen views of itself
 * (`freeze`): the base and the changed chunks as they are, all in shared memory, which a worker
 * thread assembles into a whole version while edits go on here; or of the part some boxes meet
 * (`freezeBoxes`), which a worker thread reads boxes of a version from. A chunk a view holds is
 * never written again: the next edit into it writes a copy, so a view stays the version it was
 * taken at.
 */
import { ChunkGrid } from './chunk-grid.ts';
import { SegmentPlaces } from './segment-places.ts';

export type LabelDtype = 'uint8' | 'uint16' | 'uint32';
export type LabelArray = Uint8Array | Uint16Array | Uint32Array;

/**
 * The side of a chunk: an edit writes the chunks it changed, each at most this many voxels a
 * side. 16 rather than the 64 allowed: a brush of radius 8 then copies a few 16 KiB chunks out
 * of the base (memory new to the process, slow to touch) where 32 copied eight of 128 KiB, and
 * a merge or a split scans a segment's chunks, which fit it more closely. Under four editors at
 * once, 16 took about 15% more edits a second than 32 (`npm run bench editing`).
 */
export const CHUNK = 16;

/** The largest id each dtype holds. */
export const DTYPE_MAX: Record<LabelDtype, number> = { uint8: 255, uint16: 65535, uint32: 4294967295 };

export const ARRAYS = { uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array } as const;

/** A volume as it was when frozen: its base and its changed chunks, never written again. */
export interface FrozenVolume {
  base: LabelArray;
  shape: readonly [number, number, number];
  dtype: LabelDtype;
  chunk: number;
  chunks: Map<number, LabelArray>;
}

/** A typed array of `dtype` and `length` in shared memory, so it crosses to a worker thread by reference. */
export function sharedLabels(dtype: LabelDtype, length: number): LabelArray {
  const make = ARRAYS[dtype] as unknown as new (buffer: SharedArrayBuffer) => LabelArray;
  return new make(new SharedArrayBuffer(length * ARRAYS[dtype].BYTES_PER_ELEMENT));
}

export class LabelVolume extends ChunkGrid {
  readonly dtype: LabelDtype;
  #base: LabelArray;
  #own = new Map<number, LabelArray>();
  /** Chunks a frozen view holds: copied before they are written again. */
  #frozen = new Set<number>();
  #segments: SegmentPlaces;
  /** Chunks written since {@link takeWritten} was last asked (what digests of the chunks as they are must forget). */
  #written = new Set<number>();

  constructor(base: LabelArray, shape: readonly [number, number, number], dtype: LabelDtype, chunk = CHUNK) {
    super(shape, chunk);
    if (base.length !== shape[0] * shape[1] * shape[2]) throw new Error(`labels of ${base.length} voxels do not fill the shape ${shape.join('×')}`);
    // Results live in shared memory; a base that does not is copied there once, so a frozen view
    // crosses to a thread without copying the whole volume each time.
    this.#base = base.buffer instanceof SharedArrayBuffer ? base : sharedLabels(dtype, base.length);
    if (this.#base !== base) this.#base.set(base);
    this.dtype = dtype;
    this.#segments = SegmentPlaces.of(this.#base, shape, (z, y, x) => this.chunkOf(z, y, x), chunk);
  }

  /** The largest id the volume has ever held (set back only when a write is taken back: a split's fresh ids follow it). */
  get maxEver(): number {
    return this.#segments.maxEver;
  }
  set maxEver(id: number) {
    this.#segments.maxEver = id;
  }

  /** The chunks an edit has written so far. */
  get ownChunks(): number {
    return this.#own.size;
  }

  /** The value of the voxel at flat index `i`. */
  get(i: number): number {
    if (this.#own.size === 0) return this.#base[i]!;
    const { key, at } = this.placeOf(i);
    const own = this.#own.get(key);
    return own ? own[at]! : this.#base[i]!;
  }

  /**
   * Writes `after[k]` at voxel `index[k]` for every k (`index` ascending, as an edit's changes
   * are), keeping the segment index: each chunk found (copied out of the base the first time, or
   * copied before a chunk a frozen view holds is written) once per run of its voxels, and the
   * segments' counts summed over the whole write.
   */
  write(index: ArrayLike<number>, after: ArrayLike<number>): void {
    const [, ny, nx] = this.shape;
    const c = this.chunk;
    const counts = new Map<number, number>();
    const entered = new Map<number, Set<number>>();
    const tally = (id: number, by: number) => id !== 0 && counts.set(id, (counts.get(id) ?? 0) + by);
    let key = -1;
    let chunk: LabelArray | null = null;
    // Runs of one value before (and one after) are counted once: a merge or a paint writes long runs.
    let [runBefore, runAfter, run] = [0, 0, 0];
    let [enteredValue, enteredKey] = [-1, -1];
    for (let k = 0; k < index.length; k++) {
      const i = index[k]!;
      const value = after[k]!;
      const x = i % nx;
      const y = Math.floor(i / nx) % ny;
      const z = Math.floor(i / (nx * ny));
      const at = ((z % c) * c + (y % c)) * c + (x % c);
      const keyHere = this.chunkOf(z, y, x);
      if (keyHere !== key) chunk = this.#writable((key = keyHere));
      const before = chunk![at]!;
      if (before === value) continue;
      chunk![at] = value;
      if (run > 0 && (before !== runBefore || value !== runAfter)) {
        tally(runBefore, -run);
        tally(runAfter, run);
        run = 0;
      }
      if (run === 0) [runBefore, runAfter] = [before, value];
      run++;
      // The chunk holds `value` now: listed among its chunks.
      if (value !== 0 && (value !== enteredValue || key !== enteredKey)) {
        [enteredValue, enteredKey] = [value, key];
        const into = entered.get(value);
        if (into) into.add(key);
        else entered.set(value, new Set([key]));
      }
    }
    if (run > 0) {
      tally(runBefore, -run);
      tally(runAfter, run);
    }
    this.#segments.counted(counts);
    this.#segments.entered(entered);
  }

  /** Chunk `key` ready to be written: copied out of the base the first time, copied again once a frozen view holds it. */
  #writable(key: number): LabelArray {
    let chunk = this.#own.get(key) ?? this.#copyOut(key);
    if (this.#frozen.size > 0 && this.#frozen.delete(key)) {
      const copy = sharedLabels(this.dtype, chunk.length);
      copy.set(chunk);
      this.#own.set(key, (chunk = copy));
    }
    this.#written.add(key);
    return chunk;
  }

  /** The chunks an edit has written so far (each may or may not differ from the base now). */
  ownKeys(): IterableIterator<number> {
    return this.#own.keys();
  }

  /** The chunks written since the last call, forgotten as it answers. */
  takeWritten(): number[] {
    const keys = [...this.#written];
    this.#written.clear();
    return keys;
  }

  /**
   * Chunk `key` as it is now, as a whole chunk (voxels past the grid's end 0): its own copy
   * when an edit wrote it (read it, never write it, and let it go before the next edit), else
   * a copy of the base's.
   */
  chunkNow(key: number): LabelArray {
    const own = this.#own.get(key);
    if (own) return own;
    const chunk = new ARRAYS[this.dtype](this.chunk ** 3);
    this.#fillFromBase(key, chunk);
    return chunk;
  }

  /**
   * Calls `row` for each row of chunk `key` within the grid, with where the row starts in the
   * base and in a whole chunk and its length, until `row` answers true; answers whether it did.
   */
  #rows(key: number, row: (from: number, to: number, width: number) => boolean | void): boolean {
    const c = this.chunk;
    const [z0, y0, x0, z1, y1, x1] = this.chunkBox(key);
    const [, ny, nx] = this.shape;
    for (let z = z0; z < z1; z++)
      for (let y = y0; y < y1; y++) if (row((z * ny + y) * nx + x0, ((z - z0) * c + (y - y0)) * c, x1 - x0)) return true;
    return false;
  }

  #fillFromBase(key: number, chunk: LabelArray): void {
    const base = this.#base;
    // Voxel by voxel: a row is a chunk's side, too short for a subarray and a set to pay.
    this.#rows(key, (from, to, width) => {
      for (let x = 0; x < width; x++) chunk[to + x] = base[from + x]!;
    });
  }

  /** Whether `chunk` (a whole chunk at `key`) holds other voxels than the base there: read until the first that differs. */
  differsFromBase(key: number, chunk: LabelArray): boolean {
    const base = this.#base;
    return this.#rows(key, (from, to, width) => {
      for (let x = 0; x < width; x++) if (chunk[to + x] !== base[from + x]) return true;
      return false;
    });
  }

  #copyOut(key: number): LabelArray {
    const chunk = sharedLabels(this.dtype, this.chunk ** 3);
    this.#fillFromBase(key, chunk);
    this.#own.set(key, chunk);
    return chunk;
  }

  /** Voxels of segment `id` now (0 when absent; background is never counted). */
  count(id: number): number {
    return this.#segments.count(id);
  }

  /** The chunks segment `id` may lie in. */
  chunksOf(id: number): readonly number[] {
    return this.#segments.chunksOf(id);
  }

  /**
   * Visits the voxels of the chunks `keys` that hold one of `ids` as (flat index, value), each
   * chunk read from where it is held (the base or its own copy).
   */
  forEachOf(keys: Iterable<number>, ids: readonly number[], visit: (i: number, value: number) => void): void {
    const [, ny, nx] = this.shape;
    const c = this.chunk;
    const one = ids.length === 1 ? ids[0]! : -1;
    const many = new Set(ids);
    for (const key of keys) {
      const [z0, y0, x0, z1, y1, x1] = this.chunkBox(key);
      const own = this.#own.get(key);
      const width = x1 - x0;
      for (let z = z0; z < z1; z++)
        for (let y = y0; y < y1; y++) {
          const row = (z * ny + y) * nx + x0;
          const [from, held] = own ? [((z - z0) * c + (y - y0)) * c, own] : [row, this.#base];
          for (let x = 0; x < width; x++) {
            const value = held[from + x]!;
            if (one >= 0 ? value === one : many.has(value)) visit(row + x, value);
          }
        }
    }
  }

  /**
   * The part of the volume the boxes meet (each `from`..`to`, z, y, x, `to` exclusive), frozen: the
   * base and, of the chunks a box meets, those an edit wrote, marked frozen so the next edit into
   * one writes a copy. What boxes of a version are read from on a thread (version-region.ts).
   */
  freezeBoxes(boxes: readonly { from: readonly number[]; to: readonly number[] }[]): FrozenVolume {
    const c = this.chunk;
    const [, gy, gx] = this.grid;
    const chunks = new Map<number, LabelArray>();
    for (const { from, to } of this.#own.size > 0 ? boxes : []) {
      const first = [0, 1, 2].map((a) => Math.floor(from[a]! / c));
      const last = [0, 1, 2].map((a) => (to[a]! > from[a]! ? Math.floor((to[a]! - 1) / c) : first[a]! - 1));
      for (let zc = first[0]!; zc <= last[0]!; zc++)
        for (let yc = first[1]!; yc <= last[1]!; yc++)
          for (let xc = first[2]!; xc <= last[2]!; xc++) {
            const key = (zc * gy + yc) * gx + xc;
            const own = this.#own.get(key);
            if (!own) continue;
            this.#frozen.add(key);
            chunks.set(key, own);
          }
    }
    return { base: this.#base, shape: this.shape, dtype: this.dtype, chunk: c, chunks };
  }

  /** The volume as it is now, frozen: what a version is assembled from (version-voxels.ts). */
  freeze(): FrozenVolume {
    for (const key of this.#own.keys()) this.#frozen.add(key);
    return { base: this.#base, shape: this.shape, dtype: this.dtype, chunk: this.chunk, chunks: new Map(this.#own) };
  }
}
