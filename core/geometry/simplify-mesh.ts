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
import type { StoredResult } from '../results/stored-result.ts';
import { clusterMesh } from './cluster-mesh.ts';

type StoredMesh = Extract<StoredResult, { type: 'mesh' }>;

/** A budget this many times under the mesh's triangles is met by clustering. */
export const CLUSTER_REDUCTION = 10;

function shared<T extends Float32Array | Uint32Array>(Ctor: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, length: number): T {
  return new Ctor(new SharedArrayBuffer(length * Ctor.BYTES_PER_ELEMENT));
}

/** Locks the vertices holding the smallest and largest coordinate on each axis. */
function extremeVertices(vertices: Float32Array): Uint8Array {
  const count = vertices.length / 3;
  const lock = new Uint8Array(count);
  for (let axis = 0; axis < 3; axis++) {
    let lo = 0;
    let hi = 0;
    for (let v = 1; v < count; v++) {
      if (vertices[v * 3 + axis]! < vertices[lo * 3 + axis]!) lo = v;
      if (vertices[v * 3 + axis]! > vertices[hi * 3 + axis]!) hi = v;
    }
    lock[lo] = 1;
    lock[hi] = 1;
  }
  return lock;
}

/** The triangle indices of a simplification within `target` indices. */
function simplifiedIndices(MeshoptSimplifier: Meshopt['MeshoptSimplifier'], mesh: StoredMesh, target: number): Uint32Array {
  const positions = mesh.vertices;
  const lock = extremeVertices(positions);
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
  const vertices = shared(Float32Array, mesh.vertices.length);
  vertices.set(mesh.vertices);
  const indices = shared(Uint32Array, mesh.indices.length);
  indices.set(mesh.indices);
  if (!mesh.normals) return { type: 'mesh', vertices, indices };
  const normals = shared(Float32Array, mesh.normals.length);
  normals.set(mesh.normals);
  return { type: 'mesh', vertices, indices, normals };
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
  const vertices = shared(Float32Array, unique * 3);
  const normals = mesh.normals && mesh.normals.length > 0 ? shared(Float32Array, unique * 3) : undefined;
  for (let v = 0; v < remap.length; v++) {
    const to = remap[v]!;
    if (to === 0xffffffff) continue;
    for (let c = 0; c < 3; c++) {
      vertices[to * 3 + c] = mesh.vertices[v * 3 + c]!;
      if (normals) normals[to * 3 + c] = mesh.normals![v * 3 + c]!;
    }
  }
  const out = shared(Uint32Array, indices.length);
  out.set(indices);
  return { type: 'mesh', vertices, indices: out, ...(normals ? { normals } : {}) };
}
