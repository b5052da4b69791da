/**
 * @module has-levels
 * Whether a result has levels of detail, read from the result alone (nothing built): a 3-D
 * labels volume (each segment a surface) or a mesh over `--mesh-lod-triangles`. The host says
 * so where clients meet a result (a `/data` answer's header, a scene layer's `levels`), so a
 * viewer asks for levels only of a result that has them, never to find out; asked anyway, it
 * answers why not.
 */
import { segmentVolume } from '../delivery/segment-delivery.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';

/**
 * What levels of detail `result` has: its labels volume, the mesh itself, or why none (made only
 * when read: `/data` asks this of every answer and needs no sentence).
 */
export type MeshLevelsOf = { volume: StoredVolume | null } | { why: () => string; error?: unknown };

export function meshLevelsOf(result: StoredResult, lodTriangles: number): MeshLevelsOf {
  if (result.type === 'mesh') {
    const triangles = result.indices.length / 3;
    return triangles > lodTriangles ? { volume: null } : { why: () => `it is a mesh of ${triangles} triangles, within --mesh-lod-triangles (${lodTriangles})` };
  }
  try {
    return { volume: segmentVolume(result) };
  } catch (error) {
    return { why: () => (result.type === 'volume' ? 'it is a volume that is not a 3-D labels volume' : `it is a ${result.type.replace('_', ' ')}`), error };
  }
}

export function hasMeshLevels(result: StoredResult, lodTriangles: number): boolean {
  return 'volume' in meshLevelsOf(result, lodTriangles);
}
