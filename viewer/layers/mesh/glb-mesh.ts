/**
 * @module glb-mesh
 * Dynamic meshes travel to the viewer as meshopt-compressed GLB (quantised positions and
 * normals, about a tenth of the envelope's bytes). This module names that delivery and turns
 * the GLB back into the viewer's mesh data with three's GLTFLoader and meshoptimizer's
 * decoder, applying the node transform that undoes the quantisation. Anything else (an
 * envelope from a host that ignores the request, a volume) passes through unchanged. A
 * fragment of a level of detail is read the same way but kept as it came (quantised, placed
 * by its node's matrix), as it is drawn.
 */
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import type { MeshData, SpecimenData } from '../../../core/wire/decoded-types.ts';
import type { DeliveryQuery } from '../../../core/wire/wire-types.ts';
import type { HeldFragment } from './lod-store.ts';

/** What the viewer asks for when it fetches a mesh. */
export const MESH_DELIVERY: DeliveryQuery = { format: 'glb', compress: 'meshopt' };

/** A GLTFLoader that reads meshopt-compressed files. */
export function meshoptGltfLoader(): GLTFLoader {
  return new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
}

/** The first mesh of a parsed glTF scene (its world matrices updated); `what` names the file when it has none. */
function firstMesh(scene: THREE.Object3D, what: string): THREE.Mesh {
  scene.updateMatrixWorld(true);
  let found: THREE.Mesh | null = null;
  scene.traverse((node) => {
    if (!found && node instanceof THREE.Mesh) found = node;
  });
  if (!found) throw new Error(`the ${what} holds no mesh`);
  return found;
}

/** The first mesh of a parsed glTF scene as flat float arrays in scene space. */
function flatten(scene: THREE.Object3D): MeshData {
  const mesh = firstMesh(scene, 'GLB');
  const geometry = mesh.geometry as THREE.BufferGeometry;
  const position = geometry.getAttribute('position');
  const normal = geometry.getAttribute('normal');
  const vertices = new Float32Array(position.count * 3);
  const normals = normal ? new Float32Array(position.count * 3) : null;
  const v = new THREE.Vector3();
  const normalMatrix = new THREE.Matrix3().getNormalMatrix(mesh.matrixWorld);
  for (let i = 0; i < position.count; i++) {
    // getX/Y/Z undo normalised integer storage; the world matrix undoes the quantisation grid.
    v.set(position.getX(i), position.getY(i), position.getZ(i)).applyMatrix4(mesh.matrixWorld);
    vertices.set([v.x, v.y, v.z], i * 3);
    if (normal && normals) {
      v.set(normal.getX(i), normal.getY(i), normal.getZ(i)).applyMatrix3(normalMatrix).normalize();
      normals.set([v.x, v.y, v.z], i * 3);
    }
  }
  const index = geometry.index;
  const indices = index ? Uint32Array.from(index.array as ArrayLike<number>) : Uint32Array.from({ length: position.count }, (_, i) => i);
  return { type: 'mesh', vertices, indices, normals };
}

function isGlb(data: SpecimenData): data is SpecimenData & { type: 'file' } {
  return data.type === 'file' && data.contentType.split(';')[0]!.trim().toLowerCase() === 'model/gltf-binary';
}

/** A GLB answer as mesh data; any other data as it is. */
export async function asDecodedMesh(data: SpecimenData): Promise<SpecimenData> {
  if (!isGlb(data)) return data;
  const gltf = await meshoptGltfLoader().parseAsync(bufferOf(data.bytes), '');
  return flatten(gltf.scene);
}

/** The bytes of a view as an ArrayBuffer of their own (what three's loaders parse). */
export function bufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** A fragment's GLB as its geometry (quantised attributes, as the GPU takes them), the matrix placing it, and its bytes held. */
export async function decodeFragmentGlb(bytes: ArrayBuffer): Promise<HeldFragment> {
  const mesh = firstMesh((await meshoptGltfLoader().parseAsync(bytes, '')).scene, 'fragment');
  (mesh.material as THREE.Material).dispose();
  const geometry = mesh.geometry as THREE.BufferGeometry;
  let held = geometry.index?.array.byteLength ?? 0;
  for (const attribute of Object.values(geometry.attributes)) held += (attribute.array as ArrayBufferView).byteLength;
  geometry.computeBoundingSphere();
  return { geometry, matrix: mesh.matrixWorld.clone(), bytes: held };
}
