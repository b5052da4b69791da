/**
 * @module parametric-surface
 * Turns a parametric surface (u, v) → (x, y, z) into an indexed triangle mesh on a regular
 * grid, sharing the seam vertices of closed directions so normals stay smooth across them.
 */
import type { MeshResult } from 'vitrine';
import { computeVertexNormals } from '../shared/mesh-normals.ts';

/** Writes the surface point at (u, v), both in [0, 1], into `out[0..2]`. */
export type SurfacePoint = (u: number, v: number, out: Float64Array) => void;

/** How to sample a parametric surface. */
export interface ParametricGrid {
  /** Number of quads along u. */
  uSegments: number;
  /** Number of quads along v. */
  vSegments: number;
  /** u = 1 is the same curve as u = 0 (the seam vertices are shared). */
  wrapU: boolean;
  /** v = 1 is the same curve as v = 0. */
  wrapV: boolean;
  /** Reverse the triangle winding (use when the parametrisation faces inwards). */
  flip?: boolean;
}

/**
 * Samples `point` on the grid and returns the triangle mesh with smooth normals.
 *
 * @param point The surface.
 * @param grid Resolution and closure of both directions.
 */
export function buildParametricMesh(point: SurfacePoint, grid: ParametricGrid): MeshResult {
  const { uSegments, vSegments, wrapU, wrapV } = grid;
  const uCount = wrapU ? uSegments : uSegments + 1;
  const vCount = wrapV ? vSegments : vSegments + 1;
  const vertices = new Float32Array(uCount * vCount * 3);
  const p = new Float64Array(3);
  let w = 0;
  for (let i = 0; i < uCount; i++) {
    for (let j = 0; j < vCount; j++) {
      point(i / uSegments, j / vSegments, p);
      vertices[w++] = p[0]!;
      vertices[w++] = p[1]!;
      vertices[w++] = p[2]!;
    }
  }
  const indices = new Uint32Array(uSegments * vSegments * 6);
  const vertexAt = (i: number, j: number): number => (i % uCount) * vCount + (j % vCount);
  let t = 0;
  for (let i = 0; i < uSegments; i++) {
    for (let j = 0; j < vSegments; j++) {
      const a = vertexAt(i, j);
      const b = vertexAt(i + 1, j);
      const c = vertexAt(i + 1, j + 1);
      const d = vertexAt(i, j + 1);
      if (grid.flip) {
        indices.set([a, c, b, a, d, c], t);
      } else {
        indices.set([a, b, c, a, c, d], t);
      }
      t += 6;
    }
  }
  return { type: 'mesh', vertices, indices, normals: computeVertexNormals(vertices, indices) };
}
