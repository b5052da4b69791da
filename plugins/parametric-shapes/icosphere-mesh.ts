/**
 * @module icosphere-mesh
 * A geodesic sphere: an icosahedron whose faces are split into four, `subdivisions` times,
 * with every new vertex pushed onto the sphere. Triangles stay nearly equal in size, unlike a
 * UV sphere that crowds them at the poles.
 */
import type { MeshResult } from 'vitrine';

const T = (1 + Math.sqrt(5)) / 2;

const ICOSAHEDRON_VERTICES = [
  [-1, T, 0], [1, T, 0], [-1, -T, 0], [1, -T, 0],
  [0, -1, T], [0, 1, T], [0, -1, -T], [0, 1, -T],
  [T, 0, -1], [T, 0, 1], [-T, 0, -1], [-T, 0, 1],
] as const;

const ICOSAHEDRON_FACES = [
  [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
  [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
  [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
  [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
] as const;

/**
 * Builds a geodesic sphere centred on the origin, outward-facing, with exact normals.
 *
 * @param radius Sphere radius.
 * @param subdivisions Times each face is split in four (20 · 4^n triangles).
 */
export function buildIcosphere(radius: number, subdivisions: number): MeshResult {
  const faceCount = 20 * 4 ** subdivisions;
  // Euler: V = F / 2 + 2 for a closed triangulated sphere.
  const vertexCount = faceCount / 2 + 2;
  const unit = new Float64Array(vertexCount * 3);
  let used = 0;
  const push = (x: number, y: number, z: number): number => {
    const length = Math.hypot(x, y, z);
    unit[used * 3] = x / length;
    unit[used * 3 + 1] = y / length;
    unit[used * 3 + 2] = z / length;
    return used++;
  };
  for (const [x, y, z] of ICOSAHEDRON_VERTICES) push(x, y, z);

  let faces = new Uint32Array(ICOSAHEDRON_FACES.flat());
  for (let level = 0; level < subdivisions; level++) {
    const midpoints = new Map<number, number>();
    const midpoint = (a: number, b: number): number => {
      const key = a < b ? a * vertexCount + b : b * vertexCount + a;
      let m = midpoints.get(key);
      if (m === undefined) {
        m = push(
          unit[a * 3]! + unit[b * 3]!,
          unit[a * 3 + 1]! + unit[b * 3 + 1]!,
          unit[a * 3 + 2]! + unit[b * 3 + 2]!,
        );
        midpoints.set(key, m);
      }
      return m;
    };
    const next = new Uint32Array(faces.length * 4);
    for (let f = 0, w = 0; f < faces.length; f += 3) {
      const a = faces[f]!, b = faces[f + 1]!, c = faces[f + 2]!;
      const ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      next.set([a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca], w);
      w += 12;
    }
    faces = next;
  }

  const vertices = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(unit);
  for (let i = 0; i < vertices.length; i++) vertices[i] = unit[i]! * radius;
  return { type: 'mesh', vertices, indices: faces, normals };
}
