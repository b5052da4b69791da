/**
 * @module editing-plans
 * What each editor of `npm run bench editing` sends, worked out from the generated
 * segmentation alone so that every edit is one the host accepts while four editors work at
 * once. The segments are shared out: editor `k` owns the ids `id % editors === k` (the large
 * segment excepted), and among its own a third are merged, a third split and a third painted,
 * so no editor's edit takes away what another's relies on:
 * - a merge joins two of its merge segments never merged before (both still present);
 * - a split cuts one of its split segments, never cut before, with one seed at its first voxel
 *   in C order and one at its last (voxels no other edit touches);
 * - a paint is a ball of radius 8 at the middle voxel of one of its paint segments `m`, over
 *   `m`'s voxels only (`only`), with the label of the next of its paint segments.
 * Ops take turns: paint, merge, split, paint, merge, ... Each plan names the segment whose
 * surface changed (what the mesh sample asks for).
 */
import type { Segmentation } from './editing-volume.ts';
import { BIG_SEGMENT } from './editing-volume.ts';

/** The radius of every paint. */
export const BRUSH = 8;

export interface PlannedEdit {
  body: Record<string, unknown>;
  /** A segment the edit changed that is still present after it. */
  changed: number;
}

/** The voxel (z, y, x) at flat index `i` of a cube of `size`. */
function voxel(size: number, i: number): [number, number, number] {
  return [Math.floor(i / (size * size)), Math.floor(i / size) % size, i % size];
}

/** A small deterministic shuffle (the same plans every run). */
function shuffled(ids: number[], seed: number): number[] {
  let state = seed >>> 0 || 1;
  const out = [...ids];
  for (let k = out.length - 1; k > 0; k--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = (state >>> 0) % (k + 1);
    [out[k], out[j]] = [out[j]!, out[k]!];
  }
  return out;
}

/** The edits editor `k` of `editors` makes, `count` of them, in order. */
export function editorPlans(seg: Segmentation, k: number, editors: number, count: number): PlannedEdit[] {
  const pools: number[][] = [[], [], []];
  for (let id = 2; id <= seg.top; id++) if (id % editors === k) pools[Math.floor(id / editors) % 3]!.push(id);
  const [merges, splits, paints] = pools.map((pool, role) => shuffled(pool, 1 + k * 3 + role)) as [number[], number[], number[]];
  const plans: PlannedEdit[] = [];
  let [m, s, p] = [0, 0, 0];
  for (let n = 0; plans.length < count; n++) {
    const op = n % 3;
    if (op === 0 && p + 1 < paints.length) {
      const [on, label] = [paints[p]!, paints[p + 1]!];
      p++;
      const body = { op: 'paint', label, center: voxel(seg.size, seg.middle[on]!), radius: BRUSH, only: on };
      plans.push({ body, changed: on });
    } else if (op === 1 && m + 1 < merges.length) {
      const [into, from] = [merges[m]!, merges[m + 1]!];
      m += 2;
      plans.push({ body: { op: 'merge', segments: [into, from] }, changed: into });
    } else if (op === 2 && s < splits.length) {
      const a = splits[s++]!;
      plans.push({ body: { op: 'split', segment: a, seeds: [[voxel(seg.size, seg.first[a]!)], [voxel(seg.size, seg.last[a]!)]] }, changed: a });
    } else if (p + 1 >= paints.length && m + 1 >= merges.length && s >= splits.length) {
      throw new Error(`editor ${k} ran out of segments after ${plans.length} edits: a larger volume or fewer edits`);
    }
  }
  return plans;
}

/** The split of the large segment: one seed at its first voxel, one at its last. */
export function bigSplit(seg: Segmentation): Record<string, unknown> {
  const seeds = [[voxel(seg.size, seg.first[BIG_SEGMENT]!)], [voxel(seg.size, seg.last[BIG_SEGMENT]!)]];
  return { op: 'split', segment: BIG_SEGMENT, seeds };
}
