/**
 * @module segment-regions
 * Where a changed segment can lie, as few small boxes rather than one large one: its earlier
 * box and the boxes of the edits that changed it, far apart when a merge or a paint joined it
 * to voxels across the volume. Boxes that overlap or touch (a voxel of one beside a voxel of
 * the other) are joined until none does; the segment's entry is then found in each box alone
 * and added up. Its voxels and faces add up exactly: no voxel of one box is a neighbour of a
 * voxel of another, so a face counted against "outside the box" is against a voxel that is not
 * the segment (every voxel of it lies in one of the boxes).
 */
import type { IndexBox, IndexEntry } from './derived-label-index.ts';
import { entryIn } from './derived-label-index.ts';

/** A box as first z, y, x and ends (exclusive). */
type Box = { from: number[]; to: number[] };

const touches = (a: Box, b: Box) => [0, 1, 2].every((k) => a.from[k]! <= b.to[k]! && b.from[k]! <= a.to[k]!);

/** `boxes` joined until no two overlap or touch. */
export function apartBoxes(boxes: readonly IndexBox[]): IndexBox[] {
  let out: Box[] = boxes.map((b) => ({ from: [...b.from], to: [...b.to] }));
  for (let joined = true; joined; ) {
    joined = false;
    const next: Box[] = [];
    for (const box of out) {
      const near = next.find((other) => touches(other, box));
      if (!near) {
        next.push(box);
        continue;
      }
      joined = true;
      for (let k = 0; k < 3; k++) [near.from[k], near.to[k]] = [Math.min(near.from[k]!, box.from[k]!), Math.max(near.to[k]!, box.to[k]!)];
    }
    out = next;
  }
  return out;
}

/** A box's voxels: `data` in C order over `shape`, its first voxel `from` of the volume. */
export interface BoxVoxels {
  data: ArrayLike<number>;
  shape: readonly number[];
  from: readonly number[];
}

/** Segment `id`'s entry from `parts`, boxes apart from each other that hold every voxel of it; null when none does. */
export function entryInParts(parts: readonly BoxVoxels[], id: number): IndexEntry | null {
  let total: IndexEntry | null = null;
  for (const part of parts) {
    const entry = entryIn(part.data, part.shape, part.from, id);
    if (!entry) continue;
    if (!total) {
      total = entry;
      continue;
    }
    total.count += entry.count;
    total.faces += entry.faces;
    for (let k = 0; k < 3; k++) [total.box[k], total.box[k + 3]] = [Math.min(total.box[k]!, entry.box[k]!), Math.max(total.box[k + 3]!, entry.box[k + 3]!)];
  }
  return total;
}
