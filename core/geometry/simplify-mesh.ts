/**
 * @module simplify-mesh
 * A mesh within a triangle budget, simplified with meshoptimizer. The six vertices that span
 * the bounding box are locked, so the delivered box is the original's. Where edge-collapse
 * simplification cannot reach the budget (seams, open borders), clustering (sloppy)
 * simplification finishes the job. Unused vertices are dropped; normals follow their
 * vertices. A large reduction (a preview of a mesh many times over its budget) is clustered
 * on a grid instead (cluster-mesh.ts): linear in the mesh, and nobody inspects the detail
 * edge collapse would keep at a tenth of the triangles or less. Runs on the encode worker thread.
 */
import { meshoptModule, type Meshopt } from '../formats/glb/gltf-modules.ts';
import { sharedFloat32, toSharedFloat32, toSharedUint32 } from '../formats/shared-arrays.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { clusterMesh, extremes } from './cluster-mesh.ts';

type StoredMesh = Extract<StoredResult, { type: 'mesh' }>;

/** A budget this many times under the mesh's triangles is met by clustering. */
export const CLUSTER_REDUCTION = 10;

/** The triangle indices of a simplification within `target` indices. */
function simplifiedIndices(MeshoptSimplifier: Meshopt['MeshoptSimplifier'], mesh: StoredMesh, target: number): Uint32Array {
  const positions = mesh.vertices;
  // Locked: the vertices holding the smallest and largest coordinate on each axis.
  const lock = new Uint8Array(positions.length / 3);
  for (const pair of extremes(positions)) for (const v of pair) lock[v] = 1;
  const none = new Float32Array(0);
  // An error bound of 1 (the whole mesh's extent) lets the budget alone decide where to stop.
  let [indices] = MeshoptSimplifier.simplifyWithAttributes(mesh.indices, positions, 3, none, 0, [], lock, target, 1);
  for (let aim = target; indices.length > target && aim >= 3; aim = Math.floor((aim * 0.8) / 3) * 3) {
    [indices] = MeshoptSimplifier.simplifySloppy(mesh.indices, positions, 3, lock, aim, 1);
  }
  return indices;
}

/** The clustered mesh with its arrays in shared memory, as every stored result's are. */
function inSharedMemory(mesh: ReturnType<typeof clusterMesh>): StoredMesh {
  const [vertices, indices] = [toSharedFloat32(mesh.vertices), toSharedUint32(mesh.indices)];
  return mesh.normals ? { type: 'mesh', vertices, indices, normals: toSharedFloat32(mesh.normals) } : { type: 'mesh', vertices, indices };
}

/** The mesh with at most `maxTriangles` triangles; the input itself when already within. */
export async function simplifyMesh(mesh: StoredMesh, maxTriangles: number): Promise<StoredMesh> {
  const triangles = mesh.indices.length / 3;
  if (triangles <= maxTriangles) return mesh;
  if (triangles >= CLUSTER_REDUCTION * maxTriangles) return inSharedMemory(clusterMesh(mesh, maxTriangles));
  return collapseMesh(mesh, maxTriangles);
}

/** The mesh simplified by edge collapse to at most `maxTriangles` triangles (over them, as simplifyMesh calls it). */
export async function collapseMesh(mesh: StoredMesh, maxTriangles: number): Promise<StoredMesh> {
  const { MeshoptSimplifier } = await meshoptModule();
  await MeshoptSimplifier.ready;
  const indices = simplifiedIndices(MeshoptSimplifier, mesh, maxTriangles * 3);
  // Renumber the vertices still used, in first-use order.
  const [remap, unique] = MeshoptSimplifier.compactMesh(indices);
  const vertices = sharedFloat32(unique * 3);
  const normals = mesh.normals && mesh.normals.length > 0 ? sharedFloat32(unique * 3) : undefined;
  for (let v = 0; v < remap.length; v++) {
    const to = remap[v]!;
    if (to === 0xffffffff) continue;
    for (let c = 0; c < 3; c++) {
      vertices[to * 3 + c] = mesh.vertices[v * 3 + c]!;
      if (normals) normals[to * 3 + c] = mesh.normals![v * 3 + c]!;
    }
  }
  return { type: 'mesh', vertices, indices: toSharedUint32(indices), ...(normals ? { normals } : {}) };
}
