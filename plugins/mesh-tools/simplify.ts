/**
 * @module simplify
 * Mesh simplification with meshoptimizer's simplifier (edge collapses under an error bound),
 * followed by dropping the vertices no triangle uses any more.
 */
import { MeshoptSimplifier } from 'meshoptimizer';

export interface IndexedMesh {
  vertices: Float32Array;
  indices: Uint32Array;
}

/**
 * Collapses edges until about `ratio` of the triangles remain or the geometric error would
 * pass `error` (relative to the mesh's extent); returns the compacted mesh and the error.
 */
export async function simplifyMesh(mesh: IndexedMesh, ratio: number, error: number): Promise<IndexedMesh & { error: number }> {
  await MeshoptSimplifier.ready;
  const target = Math.max(3, Math.floor((mesh.indices.length * ratio) / 3) * 3);
  const [indices, reached] = MeshoptSimplifier.simplify(Uint32Array.from(mesh.indices), Float32Array.from(mesh.vertices), 3, target, error);
  // meshoptimizer renumbers the vertices the simplified triangles still use, in first-use order.
  const [remap, unique] = MeshoptSimplifier.compactMesh(indices);
  const vertices = new Float32Array(unique * 3);
  for (let old = 0; old < remap.length; old++) {
    const to = remap[old]!;
    if (to === 0xffffffff) continue;
    vertices.set(mesh.vertices.subarray(old * 3, old * 3 + 3), to * 3);
  }
  return { vertices, indices, error: reached };
}
