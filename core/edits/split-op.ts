/**
 * @module split-op
 * A split of segment `a` by seed groups: a breadth-first flood from every seed at once through
 * the voxels of `a` (6-connected). The queue starts with group 0's seeds, then group 1's, and
 * so on, so each ring of the flood stays in group order and a voxel reached at the same
 * distance by two groups goes to the lower one. Group 0 keeps `a`; group g (g ≥ 1) takes the
 * id g past the largest the layer has ever held; voxels of `a` that no seed reaches keep `a`.
 */
import type { SplitEdit } from '../wire/edit-types.ts';
import { invalid } from './check-edit.ts';
import { DTYPE_MAX, type LabelVolume } from './label-volume.ts';
import type { OpOutcome } from './merge-op.ts';
import { ChangeList } from './voxel-changes.ts';

export function splitOp(volume: LabelVolume, edit: SplitEdit): OpOutcome {
  const a = edit.segment;
  const [nz, ny, nx] = volume.shape;
  if (volume.count(a) === 0) throw invalid('segment', `segment ${a} is not present in the layer`);
  const fresh = edit.seeds.slice(1).map((_, g) => volume.maxEver + 1 + g);
  const top = fresh.at(-1)!;
  if (top > DTYPE_MAX[volume.dtype])
    throw invalid('seeds', `would need id ${top}, past the largest of the layer's dtype ${volume.dtype} (${DTYPE_MAX[volume.dtype]})`);
  // Which group claimed each voxel: a map, as a segment is a small part of a large volume.
  const claimed = new Map<number, number>();
  let queue: number[] = [];
  edit.seeds.forEach((group, g) =>
    group.forEach(([z, y, x], s) => {
      const i = (z * ny + y) * nx + x;
      if (volume.get(i) !== a) throw invalid(`seeds[${g}][${s}]`, `[${z}, ${y}, ${x}] is not a voxel of segment ${a}`);
      if (!claimed.has(i)) {
        claimed.set(i, g);
        queue.push(i);
      }
    }),
  );
  const plane = nx * ny;
  while (queue.length > 0) {
    const next: number[] = [];
    for (const i of queue) {
      const g = claimed.get(i)!;
      const x = i % nx;
      const y = Math.floor(i / nx) % ny;
      const z = Math.floor(i / plane);
      const visit = (j: number) => {
        if (!claimed.has(j) && volume.get(j) === a) {
          claimed.set(j, g);
          next.push(j);
        }
      };
      if (z > 0) visit(i - plane);
      if (z < nz - 1) visit(i + plane);
      if (y > 0) visit(i - nx);
      if (y < ny - 1) visit(i + nx);
      if (x > 0) visit(i - 1);
      if (x < nx - 1) visit(i + 1);
    }
    queue = next;
  }
  const list = new ChangeList();
  const made = new Set<number>();
  for (const [i, g] of claimed)
    if (g > 0) {
      list.add(i, a, fresh[g - 1]!);
      made.add(fresh[g - 1]!);
    }
  return { changes: list.done(volume.shape), segments: { changed: [a], new: fresh.filter((id) => made.has(id)) } };
}
