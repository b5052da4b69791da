/**
 * @module mesh-decoded-size
 * Vertices and triangles of a mesh or point-cloud file, counted before it is parsed: from the
 * header where the format declares them (binary STL, PLY element counts), or by one pass over
 * the bytes that allocates nothing (ASCII STL facets, OBJ face corners, PLY face lists) or
 * over the glTF JSON (each drawn primitive of the scene, and every accessor glTF-Transform
 * reads into an array). A face of n corners is n - 2 triangles: a long face fans out.
 */
import type { DecodedSize } from './decoded-size.ts';
import { fail, FormatError } from './format-error.ts';
import { PLY_SIZES, parsePlyHeader, type PlyElement } from './ply/ply-header.ts';

/** A mesh's held arrays: float32 x, y, z per vertex and three uint32 corners per triangle. */
function meshSize(vertices: number, triangles: number, extra = 0): DecodedSize {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return { bytes: vertices * 12 + triangles * 12 + extra, what: `${plural(vertices, 'vertex').replace(/vertexs$/, 'vertices')} and ${plural(triangles, 'triangle')}` };
}

function isBlank(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

function occurrences(bytes: Buffer, word: string): number {
  let count = 0;
  for (let at = bytes.indexOf(word); at >= 0; at = bytes.indexOf(word, at + word.length)) count++;
  return count;
}

export function stlDecodedSize(bytes: Buffer): DecodedSize {
  const triangles = bytes.length >= 84 && 84 + bytes.readUInt32LE(80) * 50 === bytes.length ? bytes.readUInt32LE(80) : occurrences(bytes, 'endfacet');
  // Welding keeps at most three corners per triangle.
  return meshSize(triangles * 3, triangles);
}

export function objDecodedSize(bytes: Buffer): DecodedSize {
  let vertices = 0;
  let triangles = 0;
  let at = 0;
  while (at < bytes.length) {
    while (bytes[at] === 0x20 || bytes[at] === 0x09) at++;
    const kind = bytes[at];
    if ((kind === 0x76 || kind === 0x66) && (bytes[at + 1] === 0x20 || bytes[at + 1] === 0x09)) {
      if (kind === 0x76) vertices++;
      else {
        let corners = 0;
        for (at += 1; at < bytes.length && bytes[at] !== 0x0a; at++) if (isBlank(bytes[at]) && !isBlank(bytes[at + 1]) && at + 1 < bytes.length) corners++;
        triangles += Math.max(0, corners - 2);
      }
    }
    const end = bytes.indexOf(0x0a, at);
    at = end < 0 ? bytes.length : end + 1;
  }
  return meshSize(vertices, triangles);
}

/** Reads PLY body values one after another without keeping them. */
interface PlyCursor {
  /** The next value as a number (list counts). */
  read(type: string): number;
  skip(type: string, n: number): void;
  done(): boolean;
}

function binaryCursor(bytes: Buffer, start: number, little: boolean): PlyCursor {
  let at = start;
  return {
    read(type) {
      const size = PLY_SIZES[type]!;
      const value = at + size > bytes.length ? 0 : size === 1 ? bytes[at]! : size === 2 ? (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at)) : little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
      at += size;
      return value;
    },
    skip(type, n) {
      at += PLY_SIZES[type]! * n;
    },
    done: () => at >= bytes.length,
  };
}

function asciiCursor(bytes: Buffer, start: number): PlyCursor {
  let at = start;
  const token = (): [number, number] => {
    while (at < bytes.length && isBlank(bytes[at])) at++;
    const from = at;
    while (at < bytes.length && !isBlank(bytes[at])) at++;
    return [from, at];
  };
  return {
    read() {
      const [from, to] = token();
      return Number(bytes.toString('latin1', from, Math.min(to, from + 24))) || 0;
    },
    skip(_type, n) {
      for (let i = 0; i < n && at < bytes.length; i++) token();
    },
    done: () => at >= bytes.length,
  };
}

/** Triangles of the face lists, walking every element in order (stops at the file's end). */
function plyTriangles(elements: PlyElement[], cursor: PlyCursor): number {
  let triangles = 0;
  for (const element of elements) {
    const lists = element.properties.some((p) => p.countType);
    if (!lists) {
      for (const p of element.properties) cursor.skip(p.type, element.count);
      continue;
    }
    for (let i = 0; i < element.count && !cursor.done(); i++) {
      for (const p of element.properties) {
        if (!p.countType) {
          cursor.skip(p.type, 1);
          continue;
        }
        const n = cursor.read(p.countType);
        if (element.name === 'face') triangles += Math.max(0, n - 2);
        cursor.skip(p.type, n);
      }
    }
  }
  return triangles;
}

export function plyDecodedSize(bytes: Buffer): DecodedSize {
  const header = parsePlyHeader(bytes);
  const vertex = header.elements.find((e) => e.name === 'vertex');
  const vertices = vertex?.count ?? 0;
  const cursor = header.format === 'ascii' ? asciiCursor(bytes, header.bodyOffset) : binaryCursor(bytes, header.bodyOffset, header.format === 'binary_little_endian');
  // Colours: three bytes a point.
  return meshSize(vertices, plyTriangles(header.elements, cursor), vertices * 3);
}

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
  const read = accessors.reduce((sum, a) => sum + Math.max(0, Number(a.count) || 0) * (COMPONENTS[a.type ?? ''] ?? 16) * (COMPONENT_BYTES[a.componentType ?? 0] ?? 4), 0);
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
