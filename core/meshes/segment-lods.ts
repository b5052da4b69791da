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
import { boundsOf } from '../geometry/cluster-mesh.ts';
import { planLods, type LodPlan } from './lod-plan.ts';
import { coarser, cutFragments, cutLevel, encodeFragments, meanEdge, type EncodedFragment, type LevelMesh, type LevelOut } from './level-steps.ts';
import { packLevelSet, type CoarsestLevel, type FragmentEntry, type LevelSetTable, type SegmentLods } from './level-set.ts';
import { blockLevels, PIECE_TRIANGLES } from './block-lods.ts';
import { simplifyLocked } from './locked-simplify.ts';
import type { LockedMesh } from './block-clip.ts';

/** A surface in its stored model coordinates, and the transform (3 × 4, row-major, no rotation) into physical units. */
export interface LodSource {
  positions: Float32Array;
  indices: Uint32Array;
  transform: number[];
}

/**
 * Options of a build: `pieceTriangles`, the most triangles one simplification (or one cut) is
 * given; `onCoarsest`, told the coarsest level as soon as it is encoded, before the finer ones
 * (a surface built whole, within `pieceTriangles`; one built in pieces is told nothing early).
 */
export interface LodBuildOptions {
  pieceTriangles?: number;
  onCoarsest?: (coarsest: CoarsestLevel) => void;
}

/**
 * Builds the level set of `source`. A surface over `pieceTriangles` is built in pieces for its
 * finer levels (block-lods.ts), so that no simplification, cut or encoding holds more than
 * that many triangles at once (meshoptimizer's WebAssembly memory ends at 4 GiB, and every
 * step's working memory grows with its mesh); the coarser levels are made from the pieces' union.
 */
export async function buildSegmentLods(source: LodSource, options: LodBuildOptions = {}): Promise<SegmentLods> {
  const { min, max } = boundsOf(source.positions);
  const triangles = source.indices.length / 3;
  const plan = planLods(min, max, triangles, meanEdge(source.positions, source.indices));
  const transform = source.transform;
  const pieces = options.pieceTriangles ?? PIECE_TRIANGLES;
  if (options.onCoarsest && triangles <= pieces) return coarsestFirst(source, plan, options.onCoarsest);
  const outs: LevelOut[] = [];
  let mesh: LockedMesh;
  if (triangles > pieces) {
    const blocks = await blockLevels({ type: 'mesh', vertices: source.positions, indices: source.indices }, plan, transform, pieces);
    outs.push(...blocks.levels);
    mesh = unlocked(blocks.union);
  } else {
    mesh = unlocked({ type: 'mesh', vertices: source.positions, indices: source.indices });
    const cut = await cutLevel(mesh, plan, 0, transform);
    outs.push({ ...cut, scale: meanEdge(mesh.vertices, mesh.indices) });
  }
  for (let level = outs.length; level < plan.levels; level++) {
    const below = outs[level - 1]!.triangles;
    // What cutting added to the level below, foreseen for this one.
    const inflation = below / (mesh.indices.length / 3);
    const next = await coarser(mesh, below, inflation, (simpler) => cutLevel(simpler, plan, level, transform), simplifyLocked);
    mesh = next.mesh;
    outs.push({ ...next.cut, scale: meanEdge(mesh.vertices, mesh.indices) });
  }
  return packLevels(plan, transform, outs);
}

/**
 * The same set, its coarsest level told first: every level simplified and cut (each coarser
 * level's aim follows the cut of the one below, so the chain runs whole), the coarsest encoded
 * and told, then the finer ones encoded. The fragments are encoded as the one-pass build encodes
 * them, so the set is byte for byte that build's.
 */
async function coarsestFirst(source: LodSource, plan: LodPlan, told: (coarsest: CoarsestLevel) => void): Promise<SegmentLods> {
  const { transform } = source;
  let mesh = unlocked({ type: 'mesh', vertices: source.positions, indices: source.indices });
  const cuts = [{ ...cutFragments(mesh, plan, 0), scale: meanEdge(mesh.vertices, mesh.indices) }];
  for (let level = 1; level < plan.levels; level++) {
    const below = cuts[level - 1]!.triangles;
    const inflation = below / (mesh.indices.length / 3);
    const next = await coarser(mesh, below, inflation, async (simpler) => cutFragments(simpler, plan, level), simplifyLocked);
    mesh = next.mesh;
    cuts.push({ ...next.cut, scale: meanEdge(mesh.vertices, mesh.indices) });
  }
  const last = cuts.length - 1;
  const counts = cuts.map((cut) => cut.fragments.length);
  const encoded: EncodedFragment[][] = [];
  encoded[last] = await encodeFragments(cuts[last]!.fragments, plan, last, transform);
  told(coarsestOf(tableOf(plan, transform, cuts), counts, encoded[last]!));
  for (let level = 0; level < last; level++) encoded[level] = await encodeFragments(cuts[level]!.fragments, plan, level, transform);
  return packLevels(plan, transform, cuts.map((cut, level) => ({ encoded: encoded[level]!, triangles: cut.triangles, scale: cut.scale })));
}

/** Level `level`'s fragments as a set lists them, their bytes from `at` on in each file (moved past them). */
function entriesOf(level: number, encoded: readonly EncodedFragment[], at: { draco: number; glb: number }): FragmentEntry[] {
  return encoded.map(({ cell, triangles, box, draco, glb }) => {
    const entry: FragmentEntry = { level, cell, triangles, draco: [at.draco, draco.byteLength], glb: [at.glb, glb.byteLength], box };
    at.draco += draco.byteLength;
    at.glb += glb.byteLength;
    return entry;
  });
}

/** The coarsest level's fragments as a set lists them, with their own files. */
function coarsestOf(table: LevelSetTable, counts: number[], encoded: EncodedFragment[]): CoarsestLevel {
  const fragments = entriesOf(table.levels - 1, encoded, { draco: 0, glb: 0 });
  return { ...table, counts, fragments, draco: Buffer.concat(encoded.map((f) => f.draco)), glb: Buffer.concat(encoded.map((f) => f.glb)) };
}

/** What a set says of itself: its levels' scales (non-decreasing, as Neuroglancer takes them) and triangles. */
function tableOf(plan: LodPlan, transform: number[], outs: readonly { scale: number; triangles: number }[]): LevelSetTable {
  const scales: number[] = [];
  for (const [level, out] of outs.entries()) scales.push(Math.max(out.scale, scales[level - 1] ?? 0));
  return { levels: plan.levels, plan, transform, scales, triangles: outs.map((out) => out.triangles) };
}

/**
 * A whole level's mesh, nothing held still. Simplified as the blocks are: clustering where edge
 * collapse stalls (a surface of many handles, a gyroid's, cannot keep them all in a few
 * thousand triangles) is taken only when it keeps at least a quarter of the aim, so a coarse
 * level is never a handful of triangles.
 */
function unlocked(mesh: LevelMesh): LockedMesh {
  return { ...mesh, lock: new Uint8Array(mesh.vertices.length / 3) };
}

/**
 * A surface's manifest (`{segment}.index`) in Neuroglancer's multi-resolution mesh format, all
 * little-endian: the finest cell's shape and the grid's origin (3 float32 each), the number of
 * levels (uint32), each level's scale (float32) and vertex offset (3 float32, none here), the
 * fragments of each level (uint32), then per level its fragments' x, y and z cell positions
 * (all x, then all y, then all z; uint32, in Z-curve order) and the byte size of each one's
 * Draco data (uint32), whose sum from the start gives where each begins in `{segment}`.
 */
function encodeManifest(plan: LodPlan, scales: readonly number[], levels: readonly EncodedFragment[][]): Uint8Array {
  const fragments = levels.reduce((n, level) => n + level.length, 0);
  const bytes = new Uint8Array(28 + levels.length * 20 + fragments * 16);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const f32 = (v: number) => {
    view.setFloat32(at, v, true);
    at += 4;
  };
  const u32 = (v: number) => {
    view.setUint32(at, v, true);
    at += 4;
  };
  [plan.chunk, plan.chunk, plan.chunk, ...plan.origin].forEach(f32);
  u32(levels.length);
  scales.forEach(f32);
  for (let i = 0; i < levels.length * 3; i++) f32(0);
  for (const level of levels) u32(level.length);
  for (const level of levels) {
    for (let k = 0; k < 3; k++) for (const fragment of level) u32(fragment.cell[k]!);
    for (const fragment of level) u32(fragment.draco.byteLength);
  }
  return bytes;
}

/** The levels packed as a set: the manifest, both fragment files (level 0 first) and the table. */
function packLevels(plan: LodPlan, transform: number[], outs: LevelOut[]): SegmentLods {
  const table = tableOf(plan, transform, outs);
  const at = { draco: 0, glb: 0 };
  const fragments = outs.flatMap((out, level) => entriesOf(level, out.encoded, at));
  const manifest = encodeManifest(plan, table.scales, outs.map((out) => out.encoded));
  const encoded = outs.flatMap((out) => out.encoded);
  return packLevelSet(table, fragments, manifest, encoded.map((f) => f.draco), encoded.map((f) => f.glb));
}
