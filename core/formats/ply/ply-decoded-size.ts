/**
 * @module ply-decoded-size
 * A PLY file's vertices and triangles, counted before it is parsed: the vertex count from the
 * header, the triangles by walking the body's face lists (ASCII or binary) without keeping a
 * value.
 */
import type { DecodedSize } from '../decoded-size.ts';
import { isBlank, meshSize } from '../mesh-decoded-size.ts';
import { PLY_SIZES, parsePlyHeader, type PlyElement } from './ply-header.ts';

/** Reads PLY body values one after another without keeping them. */
interface PlyCursor {
  /** The next value as a number (list counts). */
  read(type: string): number;
  skip(type: string, n: number): void;
  done(): boolean;
}

function binaryCursor(bytes: Buffer, start: number, little: boolean): PlyCursor {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = start;
  return {
    read(type) {
      const size = PLY_SIZES[type]!;
      // Unsigned, whatever the type; a count of 8 bytes read by its first 4.
      const value = at + size > bytes.length ? 0 : size === 1 ? bytes[at]! : size === 2 ? view.getUint16(at, little) : view.getUint32(at, little);
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
  const cursor =
    header.format === 'ascii' ? asciiCursor(bytes, header.bodyOffset) : binaryCursor(bytes, header.bodyOffset, header.format === 'binary_little_endian');
  // Colours: three bytes a point.
  return meshSize(vertices, plyTriangles(header.elements, cursor), vertices * 3);
}
