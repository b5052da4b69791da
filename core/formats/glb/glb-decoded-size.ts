/**
 * @module glb-decoded-size
 * A GLB file's decoded size, counted from its glTF JSON before anything is decoded: each drawn
 * primitive of the scene (each node once, however the graph repeats it), and every accessor
 * glTF-Transform reads into an array.
 */
import type { DecodedSize } from '../decoded-size.ts';
import { fail, FormatError } from '../format-error.ts';
import { meshSize } from '../mesh-decoded-size.ts';

interface GltfJson {
  scene?: number;
  scenes?: { nodes?: number[] }[];
  nodes?: { mesh?: number; children?: number[] }[];
  meshes?: { primitives?: { mode?: number; indices?: number; attributes?: { POSITION?: number } }[] }[];
  accessors?: { count?: number; type?: string; componentType?: number }[];
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

function gltfJson(bytes: Buffer): GltfJson {
  if (bytes.length < 20 || bytes.readUInt32LE(0) !== 0x46546c67) fail('not a binary glTF file (bad magic)');
  const length = bytes.readUInt32LE(12);
  if (bytes.readUInt32LE(16) !== 0x4e4f534a || 20 + length > bytes.length) fail('the file does not start with its JSON chunk');
  try {
    return JSON.parse(bytes.toString('utf8', 20, 20 + length)) as GltfJson;
  } catch (error) {
    fail(`the JSON chunk does not parse: ${(error as Error).message}`);
  }
}

export function glbDecodedSize(bytes: Buffer): DecodedSize {
  const json = gltfJson(bytes);
  try {
    return gltfSize(json);
  } catch (error) {
    if (error instanceof FormatError) throw error;
    fail(`the glTF JSON does not describe a scene: ${(error as Error).message}`);
  }
}

function gltfSize(json: GltfJson): DecodedSize {
  const accessors = json.accessors ?? [];
  const count = (index: number | undefined) => Math.max(0, Number(accessors[index ?? -1]?.count) || 0);
  const read = accessors.reduce(
    (sum, a) => sum + Math.max(0, Number(a.count) || 0) * (COMPONENTS[a.type ?? ''] ?? 16) * (COMPONENT_BYTES[a.componentType ?? 0] ?? 4),
    0,
  );
  let vertices = 0;
  let corners = 0;
  // Iterative, and each node once: a deep or cyclic node graph costs no stack.
  const seen = new Set<number>();
  const roots = json.scenes?.[json.scene ?? 0]?.nodes;
  const pending = Array.isArray(roots) ? roots.slice() : [];
  while (pending.length > 0) {
    const index = pending.pop()!;
    const node = json.nodes?.[index];
    if (!node || seen.has(index)) continue;
    seen.add(index);
    for (const primitive of json.meshes?.[node.mesh ?? -1]?.primitives ?? []) {
      if ((primitive.mode ?? 4) !== 4 || primitive.attributes?.POSITION === undefined) continue;
      const positions = count(primitive.attributes.POSITION);
      vertices += positions;
      corners += primitive.indices === undefined ? positions : count(primitive.indices);
    }
    if (Array.isArray(node.children)) for (const child of node.children) pending.push(child);
  }
  const size = meshSize(vertices, Math.ceil(corners / 3), read);
  return { bytes: size.bytes, what: `${size.what}, from ${read} bytes of accessors` };
}
