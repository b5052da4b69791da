/**
 * @module parse-glb
 * Binary glTF (`.glb`) as one mesh, read by glTF-Transform (meshopt-compressed files too):
 * every triangle primitive of the default scene, placed by its node's world transform,
 * merged into one vertex and index list. The container's declared length must be the
 * file's length.
 */
import type { NodeIO, Node as GltfNode, Primitive } from '@gltf-transform/core';
import type { TaggedResult } from '../../sdk/result-types.ts';
import { expectFinite, fail } from '../format-error.ts';
import { toSharedFloat32, toSharedUint32 } from '../shared-arrays.ts';
import { loadOnce } from '../../loading/load-once.ts';
import { gltfModules } from './gltf-modules.ts';

const GLB_MAGIC = 0x46546c67; // "glTF"
const TRIANGLES = 4;

/** A reader with meshopt decoding, made once per thread. */
const reader = loadOnce(async (): Promise<NodeIO> => {
  const { core, extensions, meshopt } = await gltfModules();
  await meshopt.MeshoptDecoder.ready;
  return new core.NodeIO()
    .registerExtensions([extensions.EXTMeshoptCompression, extensions.KHRMeshQuantization])
    .registerDependencies({ 'meshopt.decoder': meshopt.MeshoptDecoder });
});

function addPrimitive(node: GltfNode, primitive: Primitive, positions: number[], indices: number[]): void {
  if (primitive.getMode() !== TRIANGLES) return;
  const position = primitive.getAttribute('POSITION');
  if (!position) return;
  const m = node.getWorldMatrix();
  const base = positions.length / 3;
  const p = [0, 0, 0];
  for (let i = 0; i < position.getCount(); i++) {
    position.getElement(i, p);
    const [x, y, z] = p as [number, number, number];
    positions.push(m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]);
  }
  const index = primitive.getIndices();
  if (index) {
    const array = index.getArray();
    if (!array) return;
    for (let i = 0; i < array.length; i++) {
      if (array[i]! >= position.getCount()) fail(`a triangle names vertex ${array[i]}, out of range for ${position.getCount()}`);
      indices.push(base + array[i]!);
    }
  } else {
    for (let i = 0; i < position.getCount(); i++) indices.push(base + i);
  }
}

export async function parseGlb(bytes: Buffer): Promise<TaggedResult> {
  if (bytes.length < 12 || bytes.readUInt32LE(0) !== GLB_MAGIC) fail('not a binary glTF file (bad magic)');
  if (bytes.readUInt32LE(4) !== 2) fail(`unsupported glTF container version ${bytes.readUInt32LE(4)}`);
  const declared = bytes.readUInt32LE(8);
  if (declared !== bytes.length) fail(`the container declares ${declared} bytes, but the file holds ${bytes.length}`);
  let document;
  try {
    document = await (await reader()).readBinary(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    fail((error as Error).message);
  }
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) fail('the file has no scene');
  const positions: number[] = [];
  const indices: number[] = [];
  scene.traverse((node) => {
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) addPrimitive(node, primitive, positions, indices);
  });
  if (indices.length === 0) fail('the file has no triangles');
  expectFinite(positions, 'a vertex');
  if (indices.length % 3 !== 0) fail('a primitive has a corner count that is not a multiple of 3');
  return { type: 'mesh', vertices: toSharedFloat32(positions), indices: toSharedUint32(indices) };
}
