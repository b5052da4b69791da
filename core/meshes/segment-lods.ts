/**
 * @module segment-lods
 * A surface's levels of detail, built once on an encode thread: level 0 is the surface itself;
 * each coarser level is the one below simplified to a quarter of its triangles (meshoptimizer's
 * edge collapse, clustering where it stalls), each made from the whole uncut surface of the level
 * below so neighbouring fragments of a level meet without cracks; every level is then cut into
 * its octree's fragments (level-fragments.ts), each written twice: Draco for Neuroglancer and
 * meshopt GLB for the page and WebXR. What comes back is the manifest, the two fragment files
 * (level 0 first, each level in Z-curve order) and a table of the fragments, packed in one
 * shared buffer (level-set.ts) so the host takes them without a copy and keeps them as they are.
 */
import { smoothNormals } from '../geometry/mesh-builder.ts';
import { boundsOf } from '../geometry/cluster-mesh.ts';
import { simplifyMesh } from '../geometry/simplify-mesh.ts';
import { encodeDracoFragment } from './draco-fragment.ts';
import { encodeFragmentGlb, type FragmentPlacement } from './fragment-glb.ts';
import { levelFragments, type Fragment } from './level-fragments.ts';
import { encodeManifest, type ManifestLevel } from './lod-manifest.ts';
import { CELL_STEPS, planLods, type LodPlan } from './lod-plan.ts';
import { packLevelSet, type FragmentEntry, type SegmentLods } from './level-set.ts';

/** A surface in its stored model coordinates, and the transform (3 × 4, row-major, no rotation) into physical units. */
export interface LodSource {
  positions: Float32Array;
  indices: Uint32Array;
  transform: number[];
}

/** The mean length of the edges of `indices` over `positions`. */
function meanEdge(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
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

function boxOf(fragment: Fragment, place: FragmentPlacement): number[] {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < fragment.positions.length; i++) {
    const k = i % 3;
    const v = place.translation[k]! + place.scale[k]! * fragment.positions[i]!;
    if (v < lo[k]!) lo[k] = v;
    if (v > hi[k]!) hi[k] = v;
  }
  return [...lo, ...hi];
}

type LevelMesh = { type: 'mesh'; vertices: Float32Array; indices: Uint32Array };

/** A level cut into fragments, each encoded both ways. */
async function cutLevel(mesh: LevelMesh, plan: LodPlan, level: number, transform: readonly number[]) {
  const made = levelFragments(mesh.vertices, smoothNormals(mesh.vertices, mesh.indices), mesh.indices, plan, level);
  const encoded = [];
  for (const fragment of made) {
    const place = placement(plan, transform, level, fragment.cell);
    encoded.push({ fragment, place, draco: await encodeDracoFragment(fragment), glb: await encodeFragmentGlb(fragment, place) });
  }
  return { encoded, triangles: made.reduce((n, fragment) => n + fragment.indices.length / 3, 0) };
}

/** Within this of a quarter of the level below, a level is taken as it is. */
const QUARTER_SLACK = 1.25;

/**
 * The next coarser level: the uncut mesh below simplified so that, once cut (which adds
 * triangles: `inflation`, as the level below was), it holds about a quarter of `below`
 * triangles; simplified once more from the same mesh when the cut added more than foreseen.
 */
async function coarser(mesh: LevelMesh, below: number, inflation: number, plan: LodPlan, level: number, transform: readonly number[]) {
  const aim = below / 4;
  let simpler = await simplifyMesh(mesh, Math.max(1, Math.floor(aim / inflation)));
  let cut = await cutLevel(simpler, plan, level, transform);
  if (cut.triangles > aim * QUARTER_SLACK && simpler.indices.length > 3) {
    simpler = await simplifyMesh(mesh, Math.max(1, Math.floor(((simpler.indices.length / 3) * aim) / cut.triangles)));
    cut = await cutLevel(simpler, plan, level, transform);
  }
  return { mesh: simpler, cut };
}

/** Builds the level set of `source`. */
export async function buildSegmentLods(source: LodSource): Promise<SegmentLods> {
  const { min, max } = boundsOf(source.positions);
  const plan = planLods(min, max, source.indices.length / 3, meanEdge(source.positions, source.indices));
  const levels: ManifestLevel[] = [];
  const fragments: FragmentEntry[] = [];
  const dracoParts: Uint8Array[] = [];
  const glbParts: Uint8Array[] = [];
  const triangles: number[] = [];
  let mesh: LevelMesh = { type: 'mesh', vertices: source.positions, indices: source.indices };
  let cut = await cutLevel(mesh, plan, 0, source.transform);
  const at = { draco: 0, glb: 0 };
  for (let level = 0; level < plan.levels; level++) {
    // What cutting added to the level below, foreseen for this one.
    if (level > 0) {
      const inflation = triangles[level - 1]! / (mesh.indices.length / 3);
      ({ mesh, cut } = await coarser(mesh, triangles[level - 1]!, inflation, plan, level, source.transform));
    }
    // Neuroglancer takes the levels' scales as non-decreasing.
    const scale = Math.max(meanEdge(mesh.vertices, mesh.indices), levels[level - 1]?.scale ?? 0);
    const manifestLevel: ManifestLevel = { scale, cells: [], sizes: [] };
    for (const { fragment, place, draco, glb } of cut.encoded) {
      fragments.push({
        level,
        cell: fragment.cell,
        triangles: fragment.indices.length / 3,
        draco: [at.draco, draco.byteLength],
        glb: [at.glb, glb.byteLength],
        box: boxOf(fragment, place),
      });
      dracoParts.push(draco);
      glbParts.push(glb);
      at.draco += draco.byteLength;
      at.glb += glb.byteLength;
      manifestLevel.cells.push(fragment.cell);
      manifestLevel.sizes.push(draco.byteLength);
    }
    levels.push(manifestLevel);
    triangles.push(cut.triangles);
  }
  const table = { levels: plan.levels, plan, transform: source.transform, scales: levels.map((level) => level.scale), triangles };
  const manifest = encodeManifest([plan.chunk, plan.chunk, plan.chunk], plan.origin, levels);
  return packLevelSet(table, fragments, manifest, dracoParts, glbParts);
}
