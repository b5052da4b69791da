/**
 * @module block-lods
 * The finer levels of a surface too large to simplify whole, built block by block: the octree's
 * cells of one level (block-split.ts) each take their share of the surface, cut level 0 there,
 * then, trimmed to the block with the vertices on its faces held still (block-clip.ts), are
 * simplified a quarter at a time up to the level below the blocks', each level cut and encoded
 * as the whole surface's would be. Neighbouring blocks meet edge to edge at every level, since
 * neither moves the vertices they share. Only one block's share is worked on at a time, so no
 * simplification, cut or encoding holds more than about a piece's worth of triangles (what one
 * needs grows with its mesh, and meshoptimizer's WebAssembly memory ends at 4 GiB). The blocks'
 * last levels, welded where they meet, make one mesh a piece's size or less: the levels above
 * are made from it whole, the faces of the blocks no longer held.
 */
import { clipToBlock, type LockedMesh } from './block-clip.ts';
import { blockLevel, shareMesh, splitIntoBlocks } from './block-split.ts';
import { simplifyLocked } from './locked-simplify.ts';
import type { LodPlan } from './lod-plan.ts';
import { collector } from '../memory/idle-gc.ts';
import { coarser, cutLevel, meanEdge, type EncodedFragment, type LevelMesh, type LevelOut } from './level-steps.ts';

/** The most triangles one simplification, cut or encoding of a level set is given at once. */
export const PIECE_TRIANGLES = 2 ** 20;

/** A level's fragments gathered block by block, and its edges for its scale. */
interface LevelSum {
  encoded: EncodedFragment[];
  triangles: number;
  /** Sum over blocks of mean edge × triangles. */
  edges: number;
}

/**
 * The levels below the blocks' level of `mesh` (level 0, at least `pieces` triangles), built
 * block by block, and the union of the blocks' last level, from which the rest are made.
 */
export async function blockLevels(
  mesh: LevelMesh,
  plan: LodPlan,
  transform: readonly number[],
  pieces: number,
): Promise<{ levels: LevelOut[]; union: LevelMesh }> {
  const level = blockLevel(mesh, plan, pieces);
  const sums: LevelSum[] = Array.from({ length: level }, () => ({ encoded: [], triangles: 0, edges: 0 }));
  const tops: LockedMesh[] = [];
  const scratch = new Int32Array(mesh.vertices.length / 3);
  for (const block of splitIntoBlocks(mesh, plan, level)) {
    const inside = (at: number) => (cell: readonly number[]) => cell.every((c, k) => c >> (level - at) === block.coords[k]);
    const share = shareMesh(mesh, block.triangles, scratch);
    const cut = await cutLevel(share, plan, 0, transform, inside(0));
    add(sums[0]!, cut, meanEdge(share.vertices, share.indices));
    let below: LockedMesh = clipToBlock(share, plan, level, block.coords);
    let belowTriangles = cut.triangles;
    for (let at = 1; at < level; at++) {
      const inflation = belowTriangles / Math.max(1, below.indices.length / 3);
      const next = await coarser(below, belowTriangles, inflation, (simpler) => cutLevel(simpler, plan, at, transform, inside(at)), simplifyLocked);
      below = next.mesh;
      belowTriangles = next.cut.triangles;
      add(sums[at]!, next.cut, meanEdge(below.vertices, below.indices));
    }
    tops.push(below);
    // A block's working arrays live mostly outside the heap, where V8 does not see them as
    // pressure: let go now, or the blocks' garbage adds up to several times one block's.
    collector()?.();
  }
  const levels = sums.map((sum) => ({ encoded: sum.encoded, triangles: sum.triangles, scale: sum.triangles > 0 ? sum.edges / sum.triangles : 1 }));
  return { levels, union: welded(tops) };
}

function add(sum: LevelSum, cut: { encoded: EncodedFragment[]; triangles: number }, edge: number): void {
  for (const fragment of cut.encoded) sum.encoded.push(fragment);
  sum.triangles += cut.triangles;
  sum.edges += edge * cut.triangles;
}

/** The blocks' meshes as one, each vertex on a block's face one vertex however many blocks hold it. */
export function welded(parts: readonly LockedMesh[]): LevelMesh {
  const vertexCount = parts.reduce((n, part) => n + part.lock.length, 0);
  const vertices = new Float32Array(vertexCount * 3);
  const indices = new Uint32Array(parts.reduce((n, part) => n + part.indices.length, 0));
  const shared = new Map<string, number>();
  let count = 0;
  let at = 0;
  for (const part of parts) {
    const to = new Uint32Array(part.lock.length);
    for (let v = 0; v < part.lock.length; v++) {
      const x = part.vertices[v * 3]!, y = part.vertices[v * 3 + 1]!, z = part.vertices[v * 3 + 2]!;
      const key = part.lock[v] ? `${x},${y},${z}` : '';
      const known = key ? shared.get(key) : undefined;
      if (known !== undefined) {
        to[v] = known;
        continue;
      }
      vertices.set([x, y, z], count * 3);
      if (key) shared.set(key, count);
      to[v] = count++;
    }
    for (let i = 0; i < part.indices.length; i++) indices[at++] = to[part.indices[i]!]!;
  }
  return { type: 'mesh', vertices: vertices.slice(0, count * 3), indices };
}
