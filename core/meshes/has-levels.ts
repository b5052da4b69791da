/**
 * @module has-levels
 * Whether a result has levels of detail, read from the result alone (nothing built): a 3-D
 * labels volume (each segment a surface) or a mesh over `--mesh-lod-triangles`. The host says
 * so where clients meet a result (a `/data` answer's header, a scene layer's `levels`), so a
 * viewer asks for levels only of a result that has them, never to find out.
 */
import { segmentVolume } from '../delivery/segment-delivery.ts';
import type { StoredResult } from '../results/stored-result.ts';

export function hasMeshLevels(result: StoredResult, lodTriangles: number): boolean {
  if (result.type === 'mesh') return result.indices.length / 3 > lodTriangles;
  try {
    segmentVolume(result);
    return true;
  } catch {
    return false;
  }
}
