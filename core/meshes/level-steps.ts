/**
 * @module level-steps
 * The steps every level of a level set goes through, whole or in pieces (block-lods.ts): a
 * level's mesh simplified from the one below to about a quarter of its triangles once cut, then
 * cut into its octree's fragments, each encoded twice (Draco for Neuroglancer, meshopt GLB for
 * the page and WebXR) and placed in physical units.
 */
import { boundsOf } from '../geometry/cluster-mesh.ts';
import { smoothNormals } from '../geometry/mesh-builder.ts';
import { loadOnce } from '../loading/load-once.ts';
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

interface DracoEncoderModule {
  Mesh: new () => object;
  MeshBuilder: new () => {
    AddFacesToMesh(mesh: object, faces: number, indices: Uint32Array): boolean;
    AddInt32AttributeToMesh(mesh: object, type: number, vertices: number, components: number, values: Int32Array): number;
  };
  Encoder: new () => {
    SetSpeedOptions(encode: number, decode: number): void;
    SetEncodingMethod(method: number): void;
    EncodeMeshToDracoBuffer(mesh: object, out: object): number;
  };
  DracoInt8Array: new () => { ptr: number; GetValue(i: number): number };
  /** The module's memory as bytes and as words (replaced when the memory grows: read after encoding). */
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  POSITION: number;
  MESH_EDGEBREAKER_ENCODING: number;
  destroy(object: object): void;
}

const encoderModule = loadOnce(async (): Promise<DracoEncoderModule> => {
  // @ts-expect-error -- draco3d ships no type declarations: the part used is declared above.
  const draco = ((await import('draco3d')) as { default: { createEncoderModule(options: object): Promise<DracoEncoderModule> } }).default;
  return draco.createEncoderModule({});
});

/**
 * Speed 7 of 0..10: with edgebreaker, the fastest that writes the same bytes as the middle
 * setting (5) for these fragments; 10 writes about 6% more.
 */
const SPEED = 7;

type EncodedArray = InstanceType<DracoEncoderModule['DracoInt8Array']>;

/**
 * The encoded bytes, copied out of the module's memory at once. The array object holds a
 * `std::vector<int8_t>` as its first member (begin and end pointers, 32-bit in WebAssembly);
 * its bytes are read there when the vector says it holds exactly `length` bytes and its first
 * and last agree with the array's own accessor, else one call per byte (the slow, sure way).
 */
function bytesOf(draco: DracoEncoderModule, out: EncodedArray, length: number): Uint8Array {
  const begin = draco.HEAPU32[out.ptr >>> 2]!;
  const end = draco.HEAPU32[(out.ptr >>> 2) + 1]!;
  if (end - begin === length && draco.HEAPU8[begin] === (out.GetValue(0) & 0xff) && draco.HEAPU8[end - 1] === (out.GetValue(length - 1) & 0xff)) {
    return draco.HEAPU8.slice(begin, end);
  }
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = out.GetValue(i);
  return bytes;
}

/**
 * A fragment's Draco bytes, written by Google's own encoder (the `draco3d` package, loaded once
 * per thread): its quantised positions as a 3-component integer attribute (Neuroglancer reads
 * them as they are: Draco's own quantisation is not used) and its triangles, by edgebreaker.
 */
async function encodeDracoFragment(fragment: Fragment): Promise<Uint8Array> {
  const draco = await encoderModule();
  const mesh = new draco.Mesh();
  const builder = new draco.MeshBuilder();
  const encoder = new draco.Encoder();
  const out = new draco.DracoInt8Array();
  try {
    builder.AddFacesToMesh(mesh, fragment.indices.length / 3, fragment.indices);
    builder.AddInt32AttributeToMesh(mesh, draco.POSITION, fragment.positions.length / 3, 3, Int32Array.from(fragment.positions));
    encoder.SetSpeedOptions(SPEED, SPEED);
    encoder.SetEncodingMethod(draco.MESH_EDGEBREAKER_ENCODING);
    const length = encoder.EncodeMeshToDracoBuffer(mesh, out);
    if (length <= 0) throw new Error(`Draco could not encode a fragment of ${fragment.indices.length / 3} triangles`);
    return bytesOf(draco, out, length);
  } finally {
    for (const object of [out, encoder, builder, mesh]) draco.destroy(object);
  }
}
