/**
 * @module locked-simplify
 * A block of a surface simplified with the vertices on its faces held still (meshoptimizer's
 * edge collapse with a vertex lock; its clustering where edge collapse stalls, with the same
 * lock, taken only when it comes nearer the aim without falling far below it), the lock
 * following the vertices that are kept.
 */
import { meshoptModule } from '../formats/glb/gltf-modules.ts';
import type { LockedMesh } from './block-clip.ts';

/** Clustering that falls below this share of the aim is not taken (it would leave a block nearly empty). */
const LEAST_SHARE = 0.25;

/** `mesh` with at most about `maxTriangles` triangles, its locked vertices where they were. */
export async function simplifyLocked(mesh: LockedMesh, maxTriangles: number): Promise<LockedMesh> {
  if (mesh.indices.length / 3 <= maxTriangles) return mesh;
  const { MeshoptSimplifier } = await meshoptModule();
  await MeshoptSimplifier.ready;
  const target = maxTriangles * 3;
  const none = new Float32Array(0);
  // An error bound of 1 (the whole mesh's extent) lets the budget alone decide where to stop.
  let [indices] = MeshoptSimplifier.simplifyWithAttributes(mesh.indices, mesh.vertices, 3, none, 0, [], mesh.lock, target, 1);
  if (indices.length > target) {
    const [sloppy] = MeshoptSimplifier.simplifySloppy(mesh.indices, mesh.vertices, 3, mesh.lock, target, 1);
    if (sloppy.length < indices.length && sloppy.length >= target * LEAST_SHARE) indices = sloppy;
  }
  const [remap, unique] = MeshoptSimplifier.compactMesh(indices);
  const vertices = new Float32Array(unique * 3);
  const lock = new Uint8Array(unique);
  for (let v = 0; v < remap.length; v++) {
    const to = remap[v]!;
    if (to === 0xffffffff) continue;
    lock[to] = mesh.lock[v]!;
    for (let k = 0; k < 3; k++) vertices[to * 3 + k] = mesh.vertices[v * 3 + k]!;
  }
  return { type: 'mesh', vertices, indices: Uint32Array.from(indices), lock };
}
