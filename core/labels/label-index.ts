/**
 * @module label-index
 * What a segmentation holds, found in one pass: every non-zero id present, how many voxels
 * it has and its bounding box. A segment's surface is made inside its box alone, the OME-Zarr
 * label image lists the ids present, and a request for an id that is absent is refused without
 * looking at the volume again. The same pass counts each id's faces (between a voxel of it and
 * one that is not, the outside counting as not): surface nets make two triangles a face, so a
 * segment's surface is known exactly before it is made, and a build too large is refused from
 * the index alone. The pass walks each row by runs of one id (a segmentation is piecewise
 * constant); a run's faces are six a voxel less two for every neighbour of the same id, and the
 * neighbours above and behind it are found by comparing the run's span of the row above and of
 * the slice behind with its id. The last three axes are the volume's z, y, x (a 2-D volume is
 * one slice deep).
 */
import { grow } from '../geometry/mesh-builder.ts';

/** The ids of a segmentation with their voxel counts and boxes, ids ascending. */
export interface LabelIndex {
  /** Non-zero ids present. */
  ids: Uint32Array;
  /** Voxels of each id. */
  counts: Float64Array;
  /** Six per id: the first z, y, x then the last z, y, x (inclusive) where it occurs. */
  boxes: Uint32Array;
  /** Faces of each id's voxels that touch another id or the outside (its surface has two triangles each). */
  faces: Float64Array;
}

/** Ids up to this are counted in arrays indexed by id; larger ones through a map. */
const DENSE_MAX = 65535;

/** The z, y, x of a shape's last three axes, missing ones `fill`: lengths (1), or a spacing (1) or origin (0) of them. */
export function spatialShape(shape: readonly number[], fill = 1): [number, number, number] {
  const last = shape.slice(-3);
  while (last.length < 3) last.unshift(fill);
  return last as [number, number, number];
}

/** Counts and boxes by slot: ids themselves when they are small, else slots handed out as ids appear. */
class Tally {
  #slots: Map<number, number> | null;
  count: Float64Array;
  faces: Float64Array;
  box: Float64Array;
  #used = 0;

  constructor(top: number) {
    const dense = top <= DENSE_MAX;
    this.#slots = dense ? null : new Map();
    this.count = new Float64Array(dense ? top + 1 : 64);
    this.faces = new Float64Array(this.count.length);
    this.box = new Float64Array(this.count.length * 6);
    if (dense) this.#fresh(0, top + 1);
  }

  #fresh(from: number, to: number): void {
    for (let slot = from; slot < to; slot++) this.box.set([Infinity, Infinity, Infinity, -1, -1, -1], slot * 6);
  }

  slotOf(id: number): number {
    if (!this.#slots) return id;
    const known = this.#slots.get(id);
    if (known !== undefined) return known;
    const slot = this.#used++;
    if (slot === this.count.length) [this.count, this.faces, this.box] = [grow(this.count), grow(this.faces), grow(this.box)];
    this.#fresh(slot, slot + 1);
    this.#slots.set(id, slot);
    return slot;
  }

  /** Ids present, ascending. */
  ids(): number[] {
    if (this.#slots) return [...this.#slots.keys()].sort((a, b) => a - b);
    const ids: number[] = [];
    for (let id = 1; id < this.count.length; id++) if (this.count[id]! > 0) ids.push(id);
    return ids;
  }
}

/**
 * The index of `data` (C order, `shape`; the last three axes are searched, leading ones taken
 * as more z slices). `largest`: the largest id when already known (a result's value range),
 * which spares a pass.
 */
export function buildLabelIndex(data: ArrayLike<number>, shape: readonly number[], largest?: number): LabelIndex {
  const [, ny, nx] = spatialShape(shape);
  const slice = ny * nx;
  const rows = nx === 0 ? 0 : data.length / nx;
  let top = largest ?? 0;
  if (largest === undefined) for (let i = 0; i < data.length; i++) if (data[i]! > top) top = data[i]!;
  const tally = new Tally(top);
  for (let row = 0; row < rows; row++) {
    const z = Math.floor(row / ny);
    const y = row - z * ny;
    const start = row * nx;
    for (let x = 0; x < nx; ) {
      const id = data[start + x]!;
      let end = x + 1;
      while (end < nx && data[start + end] === id) end++;
      if (id !== 0) {
        // A value range that was not the data's (it never should be): count again without it.
        if (id > top) return buildLabelIndex(data, shape);
        const slot = tally.slotOf(id);
        const counts = tally.count;
        const boxes = tally.box;
        counts[slot]! += end - x;
        // Neighbours of the same id: along the run, then above it and behind it.
        let same = end - x - 1;
        if (y > 0) same += matching(data, start - nx + x, start - nx + end, id);
        if (z > 0) same += matching(data, start - slice + x, start - slice + end, id);
        tally.faces[slot]! += 6 * (end - x) - 2 * same;
        const b = slot * 6;
        if (z < boxes[b]!) boxes[b] = z;
        if (y < boxes[b + 1]!) boxes[b + 1] = y;
        if (x < boxes[b + 2]!) boxes[b + 2] = x;
        if (z > boxes[b + 3]!) boxes[b + 3] = z;
        if (y > boxes[b + 4]!) boxes[b + 4] = y;
        if (end - 1 > boxes[b + 5]!) boxes[b + 5] = end - 1;
      }
      x = end;
    }
  }
  return compile(tally);
}

/** How many of `data[from..to)` equal `id`. */
export function matching(data: ArrayLike<number>, from: number, to: number, id: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (data[i] === id) n++;
  return n;
}

function compile(tally: Tally): LabelIndex {
  const ids = tally.ids();
  const n = ids.length;
  const out: LabelIndex = { ids: Uint32Array.from(ids), counts: new Float64Array(n), boxes: new Uint32Array(n * 6), faces: new Float64Array(n) };
  ids.forEach((id, k) => {
    const slot = tally.slotOf(id);
    [out.counts[k], out.faces[k]] = [tally.count[slot]!, tally.faces[slot]!];
    out.boxes.set(tally.box.subarray(slot * 6, slot * 6 + 6), k * 6);
  });
  return out;
}

/** Where `id` is in the index (-1 when the volume does not hold it). */
export function findLabel(index: LabelIndex, id: number): number {
  let lo = 0;
  let hi = index.ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = index.ids[mid]!;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The bytes an index holds (what the result budget counts for it). */
export function labelIndexBytes(index: LabelIndex): number {
  return index.ids.byteLength + index.counts.byteLength + index.boxes.byteLength + index.faces.byteLength;
}
