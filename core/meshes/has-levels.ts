/**
 * @module has-levels
 * Whether a result has levels of detail, read from the result alone (nothing built): a 3-D
 * labels volume (each segment a surface) or a mesh over `--mesh-lod-triangles`. The host says
 * so where clients meet a result (a `/data` answer's header, a scene layer's `levels`), so a
 * viewer asks for levels only of a result that has them, never to find out; asked anyway, it
 * answers why not.
 */
import { segmentVolume } from '../delivery/segment-delivery.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** Why `result` has no levels of detail (a reader's sentence), or null when it has them. */
export function whyNoMeshLevels(result: StoredResult, lodTriangles: number): { why: string; error?: unknown } | null {
  if (result.type === 'mesh') {
    const triangles = result.indices.length / 3;
    return triangles > lodTriangles ? null : { why: `it is a mesh of ${triangles} triangles, within --mesh-lod-triangles (${lodTriangles})` };
  }
  try {
    segmentVolume(result);
    return null;
  } catch (error) {
    return { why: result.type === 'volume' ? 'it is a volume that is not a 3-D labels volume' : `it is a ${result.type.replace('_', ' ')}`, error };
  }
}

export function hasMeshLevels(result: StoredResult, lodTriangles: number): boolean {
  return whyNoMeshLevels(result, lodTriangles) === null;
}
