/**
 * @module flat-normals
 * Per-vertex normals for meshes that arrive without them: the normalised sum of the
 * adjacent faces' area-weighted normals.
 */

/** Unit per-vertex normals from the faces around each vertex. */
export function computeFlatNormals(vertices: Float32Array, indices: Uint32Array): Float32Array {
  const normals = new Float32Array(vertices.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const e1x = vertices[b]! - vertices[a]!, e1y = vertices[b + 1]! - vertices[a + 1]!, e1z = vertices[b + 2]! - vertices[a + 2]!;
    const e2x = vertices[c]! - vertices[a]!, e2y = vertices[c + 1]! - vertices[a + 1]!, e2z = vertices[c + 2]! - vertices[a + 2]!;
    const n = [e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x] as const;
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) normals[v + k] = normals[v + k]! + n[k]!;
  }
  for (let v = 0; v < normals.length; v += 3) {
    const l = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!) || 1;
    for (let k = 0; k < 3; k++) normals[v + k] = normals[v + k]! / l;
  }
  return normals;
}
