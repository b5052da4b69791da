/**
 * @module label-index
 * What a segmentation holds, found in one pass: every non-zero id present, how many voxels
 * it has and its bounding box. A segment's surface is made inside its box alone, the OME-Zarr
 * label image lists the ids present, and a request for an id that is absent is refused without
 * looking at the volume again. The pass walks each row by runs of one id (a segmentation is
 * piecewise constant), so its cost is the row count plus the number of runs, not the voxel
 * count. The last three axes are the volume's z, y, x (a 2-D volume is one slice deep).
 */

/** The ids of a segmentation with their voxel counts and boxes, ids ascending. */
export interface LabelIndex {
  /** Non-zero ids present. */
  ids: Uint32Array;
  /** Voxels of each id. */
  counts: Float64Array;
  /** Six per id: the first z, y, x then the last z, y, x (inclusive) where it occurs. */
  boxes: Uint32Array;
}

/** Ids up to this are counted in arrays indexed by id; larger ones through a map. */
const DENSE_MAX = 65535;

/** The z, y, x lengths of a shape's last three axes (missing ones are 1). */
export function spatialShape(shape: readonly number[]): [number, number, number] {
  const last = shape.slice(-3);
  while (last.length < 3) last.unshift(1);
  return last as [number, number, number];
}

/** Counts and boxes by slot: ids themselves when they are small, else slots handed out as ids appear. */
class Tally {
  #slots: Map<number, number> | null;
  count: Float64Array;
  box: Float64Array;
  #used = 0;

  constructor(top: number) {
    const dense = top <= DENSE_MAX;
    this.#slots = dense ? null : new Map();
    this.count = new Float64Array(dense ? top + 1 : 64);
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
    if (slot === this.count.length) {
      const count = new Float64Array(slot * 2);
      const box = new Float64Array(slot * 12);
      count.set(this.count);
      box.set(this.box);
      this.count = count;
      this.box = box;
    }
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

function compile(tally: Tally): LabelIndex {
  const ids = tally.ids();
  const out: LabelIndex = { ids: new Uint32Array(ids.length), counts: new Float64Array(ids.length), boxes: new Uint32Array(ids.length * 6) };
  ids.forEach((id, k) => {
    const slot = tally.slotOf(id);
    out.ids[k] = id;
    out.counts[k] = tally.count[slot]!;
    for (let j = 0; j < 6; j++) out.boxes[k * 6 + j] = tally.box[slot * 6 + j]!;
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
  return index.ids.byteLength + index.counts.byteLength + index.boxes.byteLength;
}
