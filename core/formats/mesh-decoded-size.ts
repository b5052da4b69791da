/**
 * @module mesh-decoded-size
 * What a mesh or point-cloud file holds once decoded, in the words each format's counter
 * (`<format>/<format>-decoded-size.ts`) reports: float32 x, y, z per vertex and three uint32
 * corners per triangle. The counters work before the file is parsed, from the header where
 * the format declares the counts or by one pass over the bytes that allocates nothing. A face
 * of n corners is n - 2 triangles: a long face fans out.
 */
import { plural, type DecodedSize } from './decoded-size.ts';

/** A mesh's held arrays: float32 x, y, z per vertex and three uint32 corners per triangle. */
export function meshSize(vertices: number, triangles: number, extra = 0): DecodedSize {
  return {
    bytes: vertices * 12 + triangles * 12 + extra,
    what: `${plural(vertices, 'vertex').replace(/vertexs$/, 'vertices')} and ${plural(triangles, 'triangle')}`,
  };
}

/** A space, tab, carriage return or line feed. */
export function isBlank(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}
