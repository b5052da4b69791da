/**
 * @module split-op
 * A split of segment `a` by seed groups: a breadth-first flood from every seed at once through
 * the voxels of `a` (6-connected). The queue starts with group 0's seeds, then group 1's, and
 * so on, so each ring of the flood stays in group order and a voxel reached at the same
 * distance by two groups goes to the lower one. Group 0 keeps `a`; group g (g ≥ 1) takes the
 * id g past the largest the layer has ever held; voxels of `a` that no seed reaches keep `a`.
 *
 * The flood runs inside the box of `a`'s voxels (found in the chunks `a` lies in), on flat
 * arrays of that box: which voxels are `a`, and which group claimed each. A segment of a
 * million voxels splits in a fraction of a second this way; a box past DENSE_VOXELS (a segment
 * spread across much of a large volume) floods with a map of claimed voxels instead, so the
 * split never holds arrays the size of the volume.
 */
import { grow } from '../geometry/mesh-builder.ts';
import type { SplitEdit } from '../wire/edit-types.ts';
import { invalid } from './check-edit.ts';
import { DTYPE_MAX, type LabelVolume } from './label-volume.ts';
import type { OpOutcome } from './plain-ops.ts';
import { boxOf, ChangeList, type EditChanges } from './voxel-changes.ts';

/** The largest box (in voxels) flooded on flat arrays: 32 MiB of each. */
export const DENSE_VOXELS = 2 ** 25;

/** Where `a`'s voxels lie: first z, y, x and ends (exclusive). */
function segmentBox(volume: LabelVolume, a: number): [number, number, number, number, number, number] {
  const [, ny, nx] = volume.shape;
  const box = [Infinity, Infinity, Infinity, 0, 0, 0] as [number, number, number, number, number, number];
  volume.forEachOf(volume.chunksOf(a), [a], (i) => {
    const [z, y, x] = [Math.floor(i / (nx * ny)), Math.floor(i / nx) % ny, i % nx];
    if (z < box[0]) box[0] = z;
    if (y < box[1]) box[1] = y;
    if (x < box[2]) box[2] = x;
    if (z >= box[3]) box[3] = z + 1;
    if (y >= box[4]) box[4] = y + 1;
    if (x >= box[5]) box[5] = x + 1;
  });
  return box;
}

export function splitOp(volume: LabelVolume, edit: SplitEdit, denseVoxels = DENSE_VOXELS): OpOutcome {
  const a = edit.segment;
  const [, ny, nx] = volume.shape;
  if (volume.count(a) === 0) throw invalid('segment', `segment ${a} is not present in the layer`);
  const fresh = edit.seeds.slice(1).map((_, g) => volume.maxEver + 1 + g);
  const top = fresh.at(-1)!;
  if (top > DTYPE_MAX[volume.dtype])
    throw invalid('seeds', `would need id ${top}, past the largest of the layer's dtype ${volume.dtype} (${DTYPE_MAX[volume.dtype]})`);
  const seeds: number[][] = edit.seeds.map((group, g) =>
    group.map(([z, y, x], s) => {
      const i = (z * ny + y) * nx + x;
      if (volume.get(i) !== a) throw invalid(`seeds[${g}][${s}]`, `[${z}, ${y}, ${x}] is not a voxel of segment ${a}`);
      return i;
    }),
  );
  const box = segmentBox(volume, a);
  const voxels = (box[3] - box[0]) * (box[4] - box[1]) * (box[5] - box[2]);
  const changes = voxels <= denseVoxels ? denseFlood(volume, a, seeds, box, fresh) : sparseFlood(volume, a, seeds, fresh).done(volume.shape);
  const made = new Set<number>();
  for (let k = 0, last = -1; k < changes.after.length; k++) if (changes.after[k] !== last) made.add((last = changes.after[k]!));
  return { changes, segments: { changed: [a], new: fresh.filter((id) => made.has(id)) } };
}

/** The flood on flat arrays of the box; the changes come out in index order. */
function denseFlood(volume: LabelVolume, a: number, seeds: number[][], box: readonly number[], fresh: number[]): EditChanges {
  const [, ny, nx] = volume.shape;
  const [z0, y0, x0, z1, y1, x1] = box as [number, number, number, number, number, number];
  const [bz, by, bx] = [z1 - z0, y1 - y0, x1 - x0];
  // 1: a voxel of `a` not claimed yet; 2 + g: claimed by group g; 0: anything else.
  const state = new Uint8Array(bz * by * bx);
  volume.forEachOf(volume.chunksOf(a), [a], (i) => {
    const [z, y, x] = [Math.floor(i / (nx * ny)), Math.floor(i / nx) % ny, i % nx];
    state[((z - z0) * by + (y - y0)) * bx + (x - x0)] = 1;
  });
  const local = (i: number) => ((Math.floor(i / (nx * ny)) - z0) * by + ((Math.floor(i / nx) % ny) - y0)) * bx + ((i % nx) - x0);
  let queue = new Int32Array(64);
  let length = 0;
  const push = (k: number) => {
    if (length === queue.length) queue = grow(queue);
    queue[length++] = k;
  };
  seeds.forEach((group, g) =>
    group.forEach((i) => {
      const k = local(i);
      if (state[k] === 1) {
        state[k] = 2 + g;
        push(k);
      }
    }),
  );
  // One queue read front to back: rings follow one another in it, each in the order it was found.
  const plane = by * bx;
  let mark = 0;
  const claim = (j: number) => {
    if (state[j] !== 1) return;
    state[j] = mark;
    push(j);
  };
  for (let head = 0; head < length; head++) {
    const k = queue[head]!;
    mark = state[k]!;
    const x = k % bx;
    const y = Math.floor(k / bx) % by;
    const z = Math.floor(k / plane);
    if (z > 0) claim(k - plane);
    if (z < bz - 1) claim(k + plane);
    if (y > 0) claim(k - bx);
    if (y < by - 1) claim(k + bx);
    if (x > 0) claim(k - 1);
    if (x < bx - 1) claim(k + 1);
  }
  // The changes, in index order, straight into their arrays (half a million of them for a large segment).
  let n = 0;
  for (let k = 0; k < state.length; k++) if (state[k]! > 2) n++;
  const index = new Float64Array(n);
  const after = new Uint32Array(n);
  for (let z = 0, k = 0, at = 0; z < bz; z++)
    for (let y = 0; y < by; y++)
      for (let x = 0, i = ((z + z0) * ny + y + y0) * nx + x0; x < bx; x++, k++, i++) {
        const m = state[k]!;
        if (m <= 2) continue;
        index[at] = i;
        after[at++] = fresh[m - 3]!;
      }
  return { index, before: new Uint32Array(n).fill(a), after, tables: [], box: boxOf(index, volume.shape) };
}

/** The flood with a map of claimed voxels, for a segment whose box is too large for flat arrays. */
function sparseFlood(volume: LabelVolume, a: number, seeds: number[][], fresh: number[]): ChangeList {
  const [nz, ny, nx] = volume.shape;
  const claimed = new Map<number, number>();
  let queue: number[] = [];
  seeds.forEach((group, g) =>
    group.forEach((i) => {
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
  for (const [i, g] of claimed) if (g > 0) list.add(i, a, fresh[g - 1]!);
  return list;
}
