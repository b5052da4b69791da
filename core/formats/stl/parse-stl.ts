/**
 * @module parse-stl
 * STL meshes, binary and ASCII. A binary file is 80 header bytes, a triangle count and 50
 * bytes per triangle: its length must be exactly that (a truncated file or one whose count
 * lies is refused before anything is allocated). ASCII files are `facet ... outer loop`, three
 * `vertex x y z` lines, `endloop endfacet`. Corners are welded into an indexed mesh.
 */
import type { TaggedResult } from '../../sdk/result-types.ts';
import { expectFinite, fail } from '../format-error.ts';
import { weldVertices } from '../weld-vertices.ts';

const HEADER = 84;
const TRIANGLE = 50;

function parseBinary(bytes: Buffer, triangles: number): TaggedResult {
  // Welding copies the corners it keeps into shared memory: these need not be shared.
  const corners = new Float32Array(triangles * 9);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let t = 0; t < triangles; t++) {
    const at = HEADER + t * TRIANGLE + 12;
    const out = t * 9;
    for (let k = 0; k < 9; k++) corners[out + k] = view.getFloat32(at + k * 4, true);
  }
  expectFinite(corners, 'a vertex');
  return weldVertices(corners);
}

function parseAscii(text: string): TaggedResult {
  if (!/^\s*solid\b/.test(text)) fail('neither a binary STL (its length does not match its triangle count) nor an ASCII one (no "solid")');
  if (!/\bendsolid\b[^\n]*\s*$/.test(text)) fail('the ASCII STL ends without "endsolid" (truncated?)');
  const facets = text.split(/\bendfacet\b/).slice(0, -1);
  if (facets.length === 0) fail('the ASCII STL has no facets');
  const corners = new Float32Array(facets.length * 9);
  const number = '([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)';
  const vertex = new RegExp(`vertex\\s+${number}\\s+${number}\\s+${number}`, 'g');
  facets.forEach((facet, f) => {
    const found = [...facet.matchAll(vertex)];
    if (found.length !== 3) fail(`facet ${f + 1} has ${found.length} vertices, not 3`);
    found.forEach((m, c) => {
      for (let k = 0; k < 3; k++) corners[f * 9 + c * 3 + k] = Number(m[k + 1]);
    });
  });
  expectFinite(corners, 'a vertex');
  return weldVertices(corners);
}

export function parseStl(bytes: Buffer): TaggedResult {
  if (bytes.length >= HEADER) {
    const triangles = bytes.readUInt32LE(80);
    if (HEADER + triangles * TRIANGLE === bytes.length) {
      if (triangles === 0) fail('the STL has no triangles');
      return parseBinary(bytes, triangles);
    }
    const head = bytes.subarray(0, 5).toString('latin1');
    if (head !== 'solid') {
      fail(`the binary STL declares ${triangles} triangles (${HEADER + triangles * TRIANGLE} bytes) but the file holds ${bytes.length} bytes`);
    }
  }
  return parseAscii(bytes.toString('latin1'));
}
