/**
 * @module encode-stl
 * A mesh result as binary STL: an 80-byte header, the triangle count, then per triangle its
 * facet normal (computed from the corners, as readers expect) and three corners in float32.
 */
import type { MeshResult } from '../../sdk/result-types.ts';

const HEADER = 'vitrine binary STL';

/** The binary STL bytes of `mesh`. */
export function encodeStl(mesh: MeshResult): Uint8Array {
  const { vertices: v, indices } = mesh;
  const triangles = Math.floor(indices.length / 3);
  const bytes = new Uint8Array(84 + triangles * 50);
  bytes.set(new TextEncoder().encode(HEADER));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, triangles, true);
  let at = 84;
  for (let t = 0; t < triangles; t++) {
    const a = indices[t * 3]! * 3;
    const b = indices[t * 3 + 1]! * 3;
    const c = indices[t * 3 + 2]! * 3;
    const ux = v[b]! - v[a]!, uy = v[b + 1]! - v[a + 1]!, uz = v[b + 2]! - v[a + 2]!;
    const wx = v[c]! - v[a]!, wy = v[c + 1]! - v[a + 1]!, wz = v[c + 2]! - v[a + 2]!;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const length = Math.hypot(nx, ny, nz) || 1;
    view.setFloat32(at, nx / length, true);
    view.setFloat32(at + 4, ny / length, true);
    view.setFloat32(at + 8, nz / length, true);
    at += 12;
    for (const corner of [a, b, c]) for (let k = 0; k < 3; k++, at += 4) view.setFloat32(at, v[corner + k]!, true);
    at += 2; // attribute byte count: zero
  }
  return bytes;
}
