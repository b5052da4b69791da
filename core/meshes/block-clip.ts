/**
 * @module block-clip
 * A block's share of a surface cut at the block's faces and trimmed to what lies inside, with
 * every vertex on a face marked: those stay where they are while the block is simplified, so
 * the block and its neighbours, simplified apart, still meet edge to edge. A cut point is made
 * from its edge's two ends in the same order in both blocks (shares keep the surface's vertex
 * order), so both blocks place it alike.
 */
import { cutAlong } from './grid-cut.ts';
import { inGridUnits, planes } from './level-fragments.ts';
import { CELL_STEPS, type LodPlan } from './lod-plan.ts';
import type { LevelMesh } from './level-steps.ts';

/** A mesh with the vertices that must not move marked (1). */
export interface LockedMesh extends LevelMesh {
  lock: Uint8Array;
}

/** `mesh` (a block's share) cut at the faces of block `coords` of `level` and trimmed to the block. */
export function clipToBlock(mesh: LevelMesh, plan: LodPlan, level: number, coords: readonly number[]): LockedMesh {
  // In units of the blocks' grid: a block is CELL_STEPS a side, its faces whole multiples.
  const unit = CELL_STEPS / (plan.chunk * 2 ** level);
  const original = mesh.vertices.length / 3;
  const cut = inGridUnits(mesh.vertices, null, mesh.indices, plan, level);
  for (let axis = 0; axis < 3; axis++) cut.triangles = cutAlong(cut, axis, planes(false));
  const g = cut.coords.array;
  const all = cut.triangles.view();
  const inside = (t: number): boolean => {
    for (let k = 0; k < 3; k++) {
      const centroid = (g[all[t]! * 3 + k]! + g[all[t + 1]! * 3 + k]! + g[all[t + 2]! * 3 + k]!) / 3;
      if (Math.floor(centroid / CELL_STEPS) !== coords[k]) return false;
    }
    return true;
  };
  const kept: number[] = [];
  for (let t = 0; t < all.length; t += 3) if (inside(t)) kept.push(t);
  // Vertices still used, in their order (a cut point after the vertices it was made from).
  const local = new Int32Array(cut.coords.length / 3).fill(-1);
  for (const t of kept) for (let j = 0; j < 3; j++) local[all[t + j]!] = 0;
  let count = 0;
  for (let v = 0; v < local.length; v++) if (local[v] === 0) local[v] = count++;
  const vertices = new Float32Array(count * 3);
  const lock = new Uint8Array(count);
  for (let v = 0; v < local.length; v++) {
    const to = local[v]!;
    if (to < 0) continue;
    for (let k = 0; k < 3; k++) {
      const at = g[v * 3 + k]!;
      vertices[to * 3 + k] = v < original ? mesh.vertices[v * 3 + k]! : plan.origin[k]! + at / unit;
      if (at === coords[k]! * CELL_STEPS || at === (coords[k]! + 1) * CELL_STEPS) lock[to] = 1;
    }
  }
  const indices = new Uint32Array(kept.length * 3);
  kept.forEach((t, i) => {
    for (let j = 0; j < 3; j++) indices[i * 3 + j] = local[all[t + j]!]!;
  });
  return { type: 'mesh', vertices, indices, lock };
}
