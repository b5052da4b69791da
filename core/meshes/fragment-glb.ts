/**
 * @module fragment-glb
 * A fragment as a meshopt-compressed binary glTF for the page and the WebXR viewer, written
 * directly (a fragment is one small primitive, and glTF-Transform's document per fragment
 * would cost more than the encoding): the quantised positions as unsigned shorts and the
 * normals as normalised bytes (KHR_mesh_quantization), the node's scale and translation
 * placing the cell in the result's physical units, and every buffer view compressed with
 * meshoptimizer's codec after the vertices are reordered for it (EXT_meshopt_compression).
 * Both extensions are required, so a reader without them refuses the file.
 */
import { meshoptModule } from '../formats/glb/gltf-modules.ts';
import { boundsOf } from '../geometry/cluster-mesh.ts';
import type { Fragment } from './level-fragments.ts';

/** Where a fragment's quantised positions go: physical = translation + scale × position. */
export interface FragmentPlacement {
  translation: [number, number, number];
  scale: [number, number, number];
}

const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

const pad4 = (n: number) => (n + 3) & ~3;

interface View {
  bytes: Uint8Array;
  raw: number;
  stride: number;
  count: number;
  mode: 'ATTRIBUTES' | 'TRIANGLES';
  target: number;
}

/** The vertex and index bytes of `fragment`, reordered for the codec: positions padded to 8 bytes, normals to 4. */
function packed(fragment: Fragment, reorder: (indices: Uint32Array) => [Uint32Array, number]) {
  const indices = Uint32Array.from(fragment.indices);
  const [remap, unique] = reorder(indices);
  const positions = new Uint16Array(unique * 4);
  const normals = fragment.normals ? new Int8Array(unique * 4) : null;
  for (let v = 0; v < remap.length; v++) {
    const to = remap[v]!;
    if (to === 0xffffffff) continue;
    for (let k = 0; k < 3; k++) {
      positions[to * 4 + k] = fragment.positions[v * 3 + k]!;
      if (normals) normals[to * 4 + k] = fragment.normals![v * 3 + k]!;
    }
  }
  const wide = unique > 0xffff;
  const index = wide ? indices : Uint16Array.from(indices);
  return { unique, positions, normals, index, wide };
}

export async function encodeFragmentGlb(fragment: Fragment, place: FragmentPlacement): Promise<Uint8Array> {
  const { MeshoptEncoder } = await meshoptModule();
  await MeshoptEncoder.ready;
  const { unique, positions, normals, index, wide } = packed(fragment, (indices) => MeshoptEncoder.reorderMesh(indices, true, true));
  const bytes = (array: ArrayBufferView) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const attribute = (array: Uint16Array | Int8Array, stride: number): View => {
    const encoded = MeshoptEncoder.encodeVertexBuffer(bytes(array), unique, stride);
    return { bytes: encoded, raw: array.byteLength, stride, count: unique, mode: 'ATTRIBUTES', target: ARRAY_BUFFER };
  };
  const views: View[] = [attribute(positions, 8), ...(normals ? [attribute(normals, 4)] : [])];
  const isize = wide ? 4 : 2;
  const encodedIndices = MeshoptEncoder.encodeIndexBuffer(bytes(index), index.length, isize);
  views.push({ bytes: encodedIndices, raw: index.byteLength, stride: isize, count: index.length, mode: 'TRIANGLES', target: ELEMENT_ARRAY_BUFFER });
  return glb(gltfJson(views, fragment, place, wide), views);
}

function gltfJson(views: View[], fragment: Fragment, place: FragmentPlacement, wide: boolean): object {
  let compressed = 0;
  let raw = 0;
  const bufferViews = views.map((view) => {
    const out = {
      buffer: 1,
      byteOffset: raw,
      byteLength: view.raw,
      ...(view.mode === 'ATTRIBUTES' ? { byteStride: view.stride } : {}),
      target: view.target,
      extensions: {
        EXT_meshopt_compression: {
          ...{ buffer: 0, byteOffset: compressed, byteLength: view.bytes.byteLength },
          ...{ byteStride: view.stride, count: view.count, mode: view.mode },
        },
      },
    };
    compressed += pad4(view.bytes.byteLength);
    raw += pad4(view.raw);
    return out;
  });
  const { min, max } = boundsOf(fragment.positions);
  const vertices = views[0]!.count;
  const accessors: object[] = [{ bufferView: 0, componentType: 5123, count: vertices, type: 'VEC3', min, max }];
  if (views.length === 3) accessors.push({ bufferView: 1, componentType: 5120, normalized: true, count: vertices, type: 'VEC3' });
  accessors.push({ bufferView: views.length - 1, componentType: wide ? 5125 : 5123, count: views[views.length - 1]!.count, type: 'SCALAR' });
  const attributes = views.length === 3 ? { POSITION: 0, NORMAL: 1 } : { POSITION: 0 };
  const extensions = ['EXT_meshopt_compression', 'KHR_mesh_quantization'];
  return {
    asset: { version: '2.0', generator: 'vitrine' },
    extensionsUsed: extensions,
    extensionsRequired: extensions,
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, translation: place.translation, scale: place.scale }],
    meshes: [{ primitives: [{ attributes, indices: accessors.length - 1, mode: 4 }] }],
    accessors,
    bufferViews,
    buffers: [{ byteLength: compressed }, { byteLength: raw, extensions: { EXT_meshopt_compression: { fallback: true } } }],
  };
}

/** The GLB container: the JSON chunk (space padded) and the binary chunk of compressed views. */
function glb(json: object, views: View[]): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = pad4(text.byteLength);
  const binLength = views.reduce((n, view) => n + pad4(view.bytes.byteLength), 0);
  const out = new Uint8Array(12 + 8 + jsonLength + 8 + binLength);
  const data = new DataView(out.buffer);
  data.setUint32(0, 0x46546c67, true);
  data.setUint32(4, 2, true);
  data.setUint32(8, out.byteLength, true);
  data.setUint32(12, jsonLength, true);
  data.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.byteLength, 20 + jsonLength);
  let at = 20 + jsonLength;
  data.setUint32(at, binLength, true);
  data.setUint32(at + 4, 0x004e4942, true);
  at += 8;
  for (const view of views) {
    out.set(view.bytes, at);
    at += pad4(view.bytes.byteLength);
  }
  return out;
}
