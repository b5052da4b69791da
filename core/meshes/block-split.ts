/**
 * @module block-split
 * A large surface's triangles shared out among blocks, the octree's cells of one level chosen
 * so that each block holds at most a piece's worth: the largest blocks that do (fewer blocks,
 * so fewer borders held still while each is simplified). A block's share is every triangle
 * that comes within `margin` of it (a triangle crossing its faces is in both blocks' shares, and
 * the triangles around those too, so every normal at the block's edge is the whole surface's);
 * blocks come in Z-curve order, so that their fragments, each block's in Z-curve order, are in
 * Z-curve order at every level below the blocks'.
 */
import { mortonCode } from './level-fragments.ts';
import type { LodPlan } from './lod-plan.ts';
import type { LevelMesh } from './level-steps.ts';

export interface Block {
  /** The block's cell at the blocks' level (x, y, z). */
  coords: [number, number, number];
  /** The triangles of its share, ascending. */
  triangles: Uint32Array;
}

/** Triangles are counted in cells of a level at most this many a side when blocks are chosen. */
const COUNT_SIDE = 128;

/** The triangles' cells (by their centroids) at `level`: the cell's index in an `n`³ grid, x fastest. */
function cellIndex(mesh: LevelMesh, plan: LodPlan, level: number, t: number): number {
  const n = 2 ** (plan.levels - 1 - level);
  const side = plan.chunk * 2 ** level;
  let index = 0;
  for (let k = 2; k >= 0; k--) {
    const a = mesh.indices[t * 3]! * 3 + k, b = mesh.indices[t * 3 + 1]! * 3 + k, c = mesh.indices[t * 3 + 2]! * 3 + k;
    const centroid = (mesh.vertices[a]! + mesh.vertices[b]! + mesh.vertices[c]!) / 3;
    index = index * n + Math.max(0, Math.min(n - 1, Math.floor((centroid - plan.origin[k]!) / side)));
  }
  return index;
}

/**
 * The level of the blocks: the coarsest below the root whose cells each hold at most `pieces`
 * triangles (by centroid), else the finest counted.
 */
export function blockLevel(mesh: LevelMesh, plan: LodPlan, pieces: number): number {
  const top = plan.levels - 1;
  const finest = Math.max(1, top - Math.log2(COUNT_SIDE));
  let n = 2 ** (top - finest);
  let counts = new Uint32Array(n ** 3);
  for (let t = 0; t < mesh.indices.length / 3; t++) counts[cellIndex(mesh, plan, finest, t)]!++;
  const levels: { level: number; most: number }[] = [];
  for (let level = finest; level < top; level++) {
    levels.push({ level, most: counts.reduce((a, b) => (b > a ? b : a), 0) });
    // The next level's cells: each the sum of its eight children.
    const half = n / 2;
    const up = new Uint32Array(half ** 3);
    for (let z = 0; z < n; z++)
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) up[((z >> 1) * half + (y >> 1)) * half + (x >> 1)]! += counts[(z * n + y) * n + x]!;
    counts = up;
    n = half;
  }
  return levels.findLast((entry) => entry.most <= pieces)?.level ?? finest;
}

/** The longest edge of the mesh. */
function longestEdge(mesh: LevelMesh): number {
  const { vertices: p, indices } = mesh;
  let most = 0;
  for (let t = 0; t < indices.length; t += 3) {
    for (let j = 0; j < 3; j++) {
      const a = indices[t + j]! * 3, b = indices[t + ((j + 1) % 3)]! * 3;
      const d = (p[a]! - p[b]!) ** 2 + (p[a + 1]! - p[b + 1]!) ** 2 + (p[a + 2]! - p[b + 2]!) ** 2;
      if (d > most) most = d;
    }
  }
  return Math.sqrt(most);
}

/** The blocks of `level` and their shares of the mesh's triangles, in Z-curve order, empty ones left out. */
export function splitIntoBlocks(mesh: LevelMesh, plan: LodPlan, level: number): Block[] {
  const n = 2 ** (plan.levels - 1 - level);
  const side = plan.chunk * 2 ** level;
  // Two edges: every triangle sharing a vertex with a triangle that reaches the block.
  const margin = 2 * longestEdge(mesh);
  const { vertices: p, indices } = mesh;
  const range = new Int32Array(6);
  const rangeOf = (t: number): void => {
    for (let k = 0; k < 3; k++) {
      const a = p[indices[t * 3]! * 3 + k]!, b = p[indices[t * 3 + 1]! * 3 + k]!, c = p[indices[t * 3 + 2]! * 3 + k]!;
      const lo = Math.min(a, b, c) - margin - plan.origin[k]!, hi = Math.max(a, b, c) + margin - plan.origin[k]!;
      range[k] = Math.max(0, Math.floor(lo / side));
      range[k + 3] = Math.min(n - 1, Math.floor(hi / side));
    }
  };
  const each = (t: number, visit: (block: number) => void): void => {
    rangeOf(t);
    for (let z = range[2]!; z <= range[5]!; z++)
      for (let y = range[1]!; y <= range[4]!; y++) for (let x = range[0]!; x <= range[3]!; x++) visit((z * n + y) * n + x);
  };
  const counts = new Uint32Array(n ** 3);
  const triangles = indices.length / 3;
  for (let t = 0; t < triangles; t++) each(t, (block) => void counts[block]!++);
  const shares = new Map<number, { list: Uint32Array; at: number }>();
  counts.forEach((count, block) => void (count > 0 && shares.set(block, { list: new Uint32Array(count), at: 0 })));
  for (let t = 0; t < triangles; t++)
    each(t, (block) => {
      const share = shares.get(block)!;
      share.list[share.at++] = t;
    });
  const blocks = [...shares].map(([block, share]): Block => {
    const coords: [number, number, number] = [block % n, Math.floor(block / n) % n, Math.floor(block / (n * n))];
    return { coords, triangles: share.list };
  });
  return blocks.sort((a, b) => mortonCode(...a.coords) - mortonCode(...b.coords));
}

/** The triangles `share` of the mesh as a mesh of their own, vertices in their order in the mesh. */
export function shareMesh(mesh: LevelMesh, share: Uint32Array, scratch: Int32Array): LevelMesh {
  const used = new Uint32Array(share.length * 3);
  for (let i = 0; i < share.length; i++) for (let j = 0; j < 3; j++) used[i * 3 + j] = mesh.indices[share[i]! * 3 + j]!;
  used.sort();
  let count = 0;
  for (let i = 0; i < used.length; i++) if (i === 0 || used[i] !== used[i - 1]) used[count++] = used[i]!;
  const vertices = new Float32Array(count * 3);
  for (let v = 0; v < count; v++) {
    scratch[used[v]!] = v;
    for (let k = 0; k < 3; k++) vertices[v * 3 + k] = mesh.vertices[used[v]! * 3 + k]!;
  }
  const indices = new Uint32Array(share.length * 3);
  for (let i = 0; i < share.length; i++) for (let j = 0; j < 3; j++) indices[i * 3 + j] = scratch[mesh.indices[share[i]! * 3 + j]!]!;
  return { type: 'mesh', vertices, indices };
}
