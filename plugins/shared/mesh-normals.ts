/**
 * @module mesh-normals
 * Smooth per-vertex normals for an indexed triangle mesh: each face adds its (area-weighted)
 * normal to its three corners, and the sums are normalised.
 */

/**
 * Computes unit per-vertex normals by summing area-weighted face normals.
 * A vertex touched only by degenerate faces gets `fallback` (normalised position by default).
 *
 * @param vertices Flat x,y,z positions.
 * @param indices Flat triangle corner indices.
 * @returns Flat x,y,z unit normals, one per vertex.
 */
export function computeVertexNormals(vertices: Float32Array, indices: Uint32Array): Float32Array {
  const normals = new Float32Array(vertices.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    const ax = vertices[a]!, ay = vertices[a + 1]!, az = vertices[a + 2]!;
    const e1x = vertices[b]! - ax, e1y = vertices[b + 1]! - ay, e1z = vertices[b + 2]! - az;
    const e2x = vertices[c]! - ax, e2y = vertices[c + 1]! - ay, e2z = vertices[c + 2]! - az;
    // The cross product's length is twice the face area: larger faces weigh more.
    const nx = e1y * e2z - e1z * e2y;
    const ny = e1z * e2x - e1x * e2z;
    const nz = e1x * e2y - e1y * e2x;
    for (const v of [a, b, c]) {
      normals[v] = normals[v]! + nx;
      normals[v + 1] = normals[v + 1]! + ny;
      normals[v + 2] = normals[v + 2]! + nz;
    }
  }
  for (let v = 0; v < normals.length; v += 3) {
    let x = normals[v]!, y = normals[v + 1]!, z = normals[v + 2]!;
    let length = Math.hypot(x, y, z);
    if (length === 0) {
      // Only degenerate faces meet here (a collapsed pole): point away from the centre.
      x = vertices[v]!; y = vertices[v + 1]!; z = vertices[v + 2]!;
      length = Math.hypot(x, y, z);
      if (length === 0) { x = 0; y = 1; z = 0; length = 1; }
    }
    normals[v] = x / length;
    normals[v + 1] = y / length;
    normals[v + 2] = z / length;
  }
  return normals;
}
