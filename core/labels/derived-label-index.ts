/**
 * @module derived-label-index
 * The label index of a segmentation that differs from an earlier one only in some segments'
 * voxels (an edited version), found from the earlier index and a region alone, not a pass over
 * the whole volume. A segment whose voxels did not change keeps its count, box and faces (a
 * face is between a voxel of it and one that is not it, whatever that one holds). Each changed
 * segment lies, now, within its earlier box or the boxes the edits wrote: that region is indexed
 * alone, and its entries for the changed segments replace the earlier ones (a segment no longer
 * present drops out). No voxel just outside the region holds a changed segment, so taking the
 * outside for "not it", as the region's pass does, counts their faces as the whole pass would.
 */
import { buildLabelIndex, findLabel, matching, spatialShape, type LabelIndex } from './label-index.ts';

/** A box of voxels: its first z, y, x and its ends (exclusive). */
export interface IndexBox {
  from: readonly number[];
  to: readonly number[];
}

/** What changed between the earlier segmentation and this one: the segments, and the boxes edits wrote. */
export interface IndexChange {
  changed: readonly number[];
  boxes: readonly IndexBox[];
}

/** The region holding every voxel of the changed segments; null when nothing changed. */
function regionOf(from: LabelIndex, { changed, boxes }: IndexChange): IndexBox | null {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-1, -1, -1];
  const take = (first: readonly number[], end: readonly number[]) => {
    for (let k = 0; k < 3; k++) [lo[k], hi[k]] = [Math.min(lo[k]!, first[k]!), Math.max(hi[k]!, end[k]!)];
  };
  for (const id of changed) {
    const k = findLabel(from, id);
    if (k >= 0) take(Array.from(from.boxes.subarray(k * 6, k * 6 + 3)), Array.from(from.boxes.subarray(k * 6 + 3, k * 6 + 6), (v) => v + 1));
  }
  for (const box of boxes) take(box.from, box.to);
  return hi[0]! < 0 ? null : { from: lo, to: hi };
}

/** One segment's entry in an index: its voxels, faces and box (first z, y, x, then last). */
export interface IndexEntry {
  count: number;
  faces: number;
  box: number[];
}

/**
 * Segment `id`'s entry, found in `part` (C order over `shape`, its first voxel `offset` of the
 * volume), which holds every voxel of it; null when it holds none. Counted as the label index
 * counts (label-index.ts), for this one id alone and in one pass: six faces a voxel, less two
 * for each neighbour of the same id along x, y and z; a voxel on the part's edge has a face there.
 */
export function entryIn(part: ArrayLike<number>, shape: readonly number[], offset: readonly number[], id: number): IndexEntry | null {
  const [, ny, nx] = spatialShape(shape);
  const slice = ny * nx;
  const rows = nx === 0 ? 0 : part.length / nx;
  let [count, same] = [0, 0];
  const box = [Infinity, Infinity, Infinity, -1, -1, -1];
  for (let row = 0; row < rows; row++) {
    const z = Math.floor(row / ny);
    const y = row - z * ny;
    const start = row * nx;
    for (let x = 0; x < nx; x++) {
      if (part[start + x] !== id) continue;
      let end = x + 1;
      while (end < nx && part[start + end] === id) end++;
      count += end - x;
      // Neighbours of the same id: along the run, then above it and behind it.
      same += end - x - 1;
      if (y > 0) same += matching(part, start - nx + x, start - nx + end, id);
      if (z > 0) same += matching(part, start - slice + x, start - slice + end, id);
      [box[0], box[1], box[2]] = [Math.min(box[0]!, z), Math.min(box[1]!, y), Math.min(box[2]!, x)];
      [box[3], box[4], box[5]] = [Math.max(box[3]!, z), Math.max(box[4]!, y), Math.max(box[5]!, end - 1)];
      x = end;
    }
  }
  if (count === 0) return null;
  return { count, faces: 6 * count - 2 * same, box: box.map((v, j) => v + offset[j % 3]!) };
}

/**
 * The index of `data` (C order, `shape`, as buildLabelIndex reads it) whose earlier index is
 * `from`, with only the voxels of `change.changed` segments changed, within the earlier boxes of
 * those segments and `change.boxes`.
 */
export function derivedLabelIndex(from: LabelIndex, data: ArrayLike<number>, shape: readonly number[], change: IndexChange): LabelIndex {
  const [, ny, nx] = spatialShape(shape);
  const region = regionOf(from, change);
  const fresh = new Map<number, IndexEntry>();
  if (region) {
    const [z0, y0, x0] = region.from as [number, number, number];
    const [dz, dy, dx] = [region.to[0]! - z0, region.to[1]! - y0, region.to[2]! - x0];
    const part = new Uint32Array(dz * dy * dx);
    for (let z = 0; z < dz; z++)
      for (let y = 0; y < dy; y++) {
        const row = ((z0 + z) * ny + (y0 + y)) * nx + x0;
        for (let x = 0; x < dx; x++) part[(z * dy + y) * dx + x] = data[row + x]!;
      }
    const local = buildLabelIndex(part, [dz, dy, dx]);
    for (const id of change.changed) {
      const k = findLabel(local, id);
      if (k < 0) continue;
      const b = Array.from(local.boxes.subarray(k * 6, k * 6 + 6));
      fresh.set(id, { count: local.counts[k]!, faces: local.faces[k]!, box: b.map((v, j) => v + region.from[j % 3]!) });
    }
  }
  return replacedEntries(from, change.changed, fresh);
}

/** `from` with the entries of `changed` segments replaced by `fresh` (one not in it is gone). */
export function replacedEntries(from: LabelIndex, changed: Iterable<number>, fresh: ReadonlyMap<number, IndexEntry>): LabelIndex {
  const gone = new Set(changed);
  const ids: number[] = [];
  for (const id of from.ids) if (!gone.has(id) && !fresh.has(id)) ids.push(id);
  ids.push(...fresh.keys());
  ids.sort((a, b) => a - b);
  const n = ids.length;
  const out: LabelIndex = { ids: Uint32Array.from(ids), counts: new Float64Array(n), boxes: new Uint32Array(n * 6), faces: new Float64Array(n) };
  ids.forEach((id, k) => {
    const made = fresh.get(id);
    const j = made ? -1 : findLabel(from, id);
    [out.counts[k], out.faces[k]] = made ? [made.count, made.faces] : [from.counts[j]!, from.faces[j]!];
    out.boxes.set(made ? made.box : from.boxes.subarray(j * 6, j * 6 + 6), k * 6);
  });
  return out;
}
