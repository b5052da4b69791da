/**
 * @module parse-ply
 * PLY files (ASCII and binary, either byte order): a file with faces is a mesh, one without
 * is a point cloud (with `red green blue` colours when present). Element counts are checked
 * against the bytes (or lines) that are there before anything is allocated, so a header that
 * lies about its size is refused rather than believed.
 */
import type { TaggedResult } from '../../sdk/result-types.ts';
import { expectFinite, fail } from '../format-error.ts';
import { PLY_SIZES, parsePlyHeader, type PlyElement, type PlyProperty } from './ply-header.ts';
import { sharedFloat32, toSharedUint32 } from '../shared-arrays.ts';

/** Reads one value after another from the body, whatever its encoding. */
interface ValueReader {
  next(type: string): number;
}

/** The DataView getter of each scalar type. */
const GETTERS: Record<string, 'getInt8' | 'getUint8' | 'getInt16' | 'getUint16' | 'getInt32' | 'getUint32' | 'getFloat32' | 'getFloat64'> = {
  char: 'getInt8', int8: 'getInt8', uchar: 'getUint8', uint8: 'getUint8',
  short: 'getInt16', int16: 'getInt16', ushort: 'getUint16', uint16: 'getUint16',
  int: 'getInt32', int32: 'getInt32', uint: 'getUint32', uint32: 'getUint32',
  float: 'getFloat32', float32: 'getFloat32', double: 'getFloat64', float64: 'getFloat64',
};

function binaryReader(bytes: Buffer, offset: number, little: boolean): ValueReader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = offset;
  return {
    next(type) {
      const size = PLY_SIZES[type]!;
      if (at + size > bytes.length) fail('the PLY body ends early (truncated, or the header declares more than the file holds)');
      const value = view[GETTERS[type]!](at, little);
      at += size;
      return value;
    },
  };
}

function asciiReader(tokens: string[]): ValueReader {
  let at = 0;
  return {
    next() {
      if (at >= tokens.length) fail('the PLY body ends early (truncated, or the header declares more than the file holds)');
      const value = Number(tokens[at++]);
      if (Number.isNaN(value)) fail(`'${tokens[at - 1]}' in the PLY body is not a number`);
      return value;
    },
  };
}

/** The least bytes (or ASCII tokens) `element` can take: refuses counts the file cannot hold. */
function minimumSize(element: PlyElement, ascii: boolean): number {
  const per = element.properties.reduce((sum, p) => sum + (ascii ? 1 : PLY_SIZES[p.countType ?? p.type]!), 0);
  return per * element.count;
}

function readElement(reader: ValueReader, element: PlyElement, each: (values: Map<string, number | number[]>) => void): void {
  for (let i = 0; i < element.count; i++) {
    const values = new Map<string, number | number[]>();
    for (const property of element.properties) values.set(property.name, readProperty(reader, property));
    each(values);
  }
}

function readProperty(reader: ValueReader, property: PlyProperty): number | number[] {
  if (!property.countType) return reader.next(property.type);
  const n = reader.next(property.countType);
  const items: number[] = [];
  for (let k = 0; k < n; k++) items.push(reader.next(property.type));
  return items;
}

export function parsePly(bytes: Buffer): TaggedResult {
  const header = parsePlyHeader(bytes);
  const ascii = header.format === 'ascii';
  const body = bytes.subarray(header.bodyOffset);
  const tokens = ascii ? body.toString('latin1').split(/\s+/).filter((t) => t !== '') : [];
  const available = ascii ? tokens.length : body.length;
  const needed = header.elements.reduce((sum, e) => sum + minimumSize(e, ascii), 0);
  if (needed > available) fail(`the header declares at least ${needed} ${ascii ? 'values' : 'bytes'} of data, but the file holds ${available}`);
  const vertexElement = header.elements.find((e) => e.name === 'vertex');
  if (!vertexElement || vertexElement.count === 0) fail('the PLY file has no vertices');
  for (const axis of ['x', 'y', 'z']) if (!vertexElement.properties.some((p) => p.name === axis)) fail(`the vertices have no '${axis}'`);
  const hasColour = ['red', 'green', 'blue'].every((c) => vertexElement.properties.some((p) => p.name === c));
  const points = sharedFloat32(vertexElement.count * 3);
  const colours = hasColour ? new Uint8Array(new SharedArrayBuffer(vertexElement.count * 3)) : null;
  const indices: number[] = [];
  const reader = ascii ? asciiReader(tokens) : binaryReader(bytes, header.bodyOffset, header.format === 'binary_little_endian');
  let v = 0;
  for (const element of header.elements) {
    readElement(reader, element, (values) => {
      if (element === vertexElement) {
        points[v * 3] = values.get('x') as number;
        points[v * 3 + 1] = values.get('y') as number;
        points[v * 3 + 2] = values.get('z') as number;
        if (colours) ['red', 'green', 'blue'].forEach((c, k) => (colours[v * 3 + k] = values.get(c) as number));
        v++;
      } else if (element.name === 'face') {
        const corners = (values.get('vertex_indices') ?? values.get('vertex_index')) as number[] | undefined;
        if (!Array.isArray(corners) || corners.length < 3) fail('a face needs a vertex_indices list of at least 3 corners');
        for (const c of corners)
          if (!Number.isInteger(c) || c < 0 || c >= vertexElement.count) fail(`a face names vertex ${c}, out of range for ${vertexElement.count} vertices`);
        for (let k = 1; k + 1 < corners.length; k++) indices.push(corners[0]!, corners[k]!, corners[k + 1]!);
      }
    });
  }
  expectFinite(points, 'a vertex');
  if (indices.length > 0) return { type: 'mesh', vertices: points, indices: toSharedUint32(indices) };
  return colours ? { type: 'point_cloud', points, colors: colours } : { type: 'point_cloud', points };
}
