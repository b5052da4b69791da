/**
 * @module stl-decoded-size
 * An STL file's vertices and triangles, counted before it is parsed: the header's count when
 * the file is binary, else the ASCII file's `endfacet` words. Welding keeps at most three
 * corners per triangle, so that bounds the vertices.
 */
import type { DecodedSize } from '../decoded-size.ts';
import { meshSize } from '../mesh-decoded-size.ts';

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
