/**
 * @module level-steps
 * The steps every level of a level set goes through, whole or in pieces (block-lods.ts): a
 * level's mesh simplified from the one below to about a quarter of its triangles once cut, then
 * cut into its octree's fragments, each encoded twice (Draco for Neuroglancer, meshopt GLB for
 * the page and WebXR) and placed in physical units.
 */
import { boundsOf } from '../geometry/cluster-mesh.ts';
import { smoothNormals } from '../geometry/mesh-builder.ts';
import { encodeDracoFragment } from './draco-fragment.ts';
import { encodeFragmentGlb, type FragmentPlacement } from './fragment-glb.ts';
import { levelFragments, type Fragment } from './level-fragments.ts';
import { CELL_STEPS, type LodPlan } from './lod-plan.ts';

/** The mean length of the edges of `indices` over `positions`. */
export function meanEdge(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let sum = 0;
  const step = Math.max(1, Math.floor(indices.length / 3 / 4096)) * 3;
  let n = 0;
  for (let t = 0; t < indices.length; t += step) {
    for (let j = 0; j < 3; j++) {
      const a = indices[t + j]! * 3, b = indices[t + ((j + 1) % 3)]! * 3;
      sum += Math.hypot(positions[a]! - positions[b]!, positions[a + 1]! - positions[b + 1]!, positions[a + 2]! - positions[b + 2]!);
      n++;
    }
  }
  return n > 0 ? sum / n : 1;
}

/** Where fragment `cell` of `level` sits in physical units. */
export function placement(plan: LodPlan, transform: readonly number[], level: number, cell: readonly number[]): FragmentPlacement {
  const side = plan.chunk * 2 ** level;
  const scale = [0, 1, 2].map((k) => (transform[k * 4 + k]! * side) / CELL_STEPS) as [number, number, number];
  const translation = [0, 1, 2].map((k) => transform[k * 4 + k]! * (plan.origin[k]! + side * cell[k]!) + transform[k * 4 + 3]!) as [number, number, number];
  return { translation, scale };
}

export type LevelMesh = { type: 'mesh'; vertices: Float32Array; indices: Uint32Array };

/**
 * A fragment as the set keeps it: its cell, triangles and box in physical units, and its two
 * encodings. Its geometry is let go as soon as it is encoded: a large surface's fragments, held
 * whole until the set was packed, were most of what its build held.
 */
export interface EncodedFragment {
  cell: [number, number, number];
  triangles: number;
  box: number[];
  draco: Uint8Array;
  glb: Uint8Array;
}

/** The fragment's box in physical units: min x, y, z then max x, y, z. */
function boxOf(fragment: Fragment, place: FragmentPlacement): number[] {
  const { min, max } = boundsOf(fragment.positions);
  const ends = [0, 1, 2].map((k) => [min[k]!, max[k]!].map((v) => place.translation[k]! + place.scale[k]! * v).sort((a, b) => a - b));
  return [...ends.map((e) => e[0]!), ...ends.map((e) => e[1]!)];
}

/** One level as built: its fragments (Z-curve order), triangles once cut, and scale (mean edge). */
export interface LevelOut {
  encoded: EncodedFragment[];
  triangles: number;
  scale: number;
}

/** A level cut into its fragments, not yet encoded; `keep` (a cell) drops the fragments of cells it refuses. */
export function cutFragments(mesh: LevelMesh, plan: LodPlan, level: number, keep?: (cell: readonly number[]) => boolean) {
  const made = levelFragments(mesh.vertices, smoothNormals(mesh.vertices, mesh.indices), mesh.indices, plan, level);
  const fragments: (Fragment | null)[] = keep ? made.filter((fragment) => keep(fragment.cell)) : made;
  const triangles = fragments.reduce((n, fragment) => n + fragment!.indices.length / 3, 0);
  return { fragments, triangles };
}

/** A level's fragments (Z-curve order), each encoded both ways and let go as it is. */
export async function encodeFragments(fragments: (Fragment | null)[], plan: LodPlan, level: number, transform: readonly number[]): Promise<EncodedFragment[]> {
  const encoded: EncodedFragment[] = [];
  for (let i = 0; i < fragments.length; i++) {
    const fragment = fragments[i]!;
    fragments[i] = null;
    const place = placement(plan, transform, level, fragment.cell);
    const draco = await encodeDracoFragment(fragment);
    const glb = await encodeFragmentGlb(fragment, place);
    encoded.push({ cell: fragment.cell, triangles: fragment.indices.length / 3, box: boxOf(fragment, place), draco, glb });
  }
  return encoded;
}

/** A level cut into fragments, each encoded both ways; `keep` (a cell) drops the fragments of cells it refuses. */
export async function cutLevel(mesh: LevelMesh, plan: LodPlan, level: number, transform: readonly number[], keep?: (cell: readonly number[]) => boolean) {
  const { fragments, triangles } = cutFragments(mesh, plan, level, keep);
  return { encoded: await encodeFragments(fragments, plan, level, transform), triangles };
}

/** Within this of a quarter of the level below, a level is taken as it is. */
const QUARTER_SLACK = 1.25;

/**
 * The next coarser level: the uncut mesh below simplified so that, once cut (which adds
 * triangles: `inflation`, as the level below was), it holds about a quarter of `below`
 * triangles; simplified once more from the same mesh when the cut added more than foreseen.
 */
export async function coarser<M extends LevelMesh, C extends { triangles: number }>(
  mesh: M,
  below: number,
  inflation: number,
  cutAt: (mesh: M) => Promise<C>,
  simplify: (mesh: M, maxTriangles: number) => Promise<M>,
) {
  const aim = below / 4;
  let simpler = await simplify(mesh, Math.max(1, Math.floor(aim / inflation)));
  let cut = await cutAt(simpler);
  if (cut.triangles > aim * QUARTER_SLACK && simpler.indices.length > 3) {
    simpler = await simplify(mesh, Math.max(1, Math.floor(((simpler.indices.length / 3) * aim) / cut.triangles)));
    cut = await cutAt(simpler);
  }
  return { mesh: simpler, cut };
}
