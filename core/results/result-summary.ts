/**
 * @module result-summary
 * What an agent (or `GET /api/results/{result_id}`) is told about a result instead of its bytes: its type and sizes (vertex and
 * triangle counts, a volume's shape, dtype, voxel size and axes, an image's size), its value range
 * or bounds, its result id and where its data can be fetched.
 */
import { valueRange } from '../envelope/value-range.ts';
import type { StoredResult } from './stored-result.ts';
import { volumeInfo } from './volume-info.ts';

/** The [min, max] corners of flat x,y,z positions; null when there are none. */
function bounds(positions: ArrayLike<number>): { min: number[]; max: number[] } | null {
  if (positions.length < 3) return null;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < positions.length; i += 3) {
    for (let axis = 0; axis < 3; axis++) {
      const v = positions[i + axis]!;
      if (v < min[axis]!) min[axis] = v;
      if (v > max[axis]!) max[axis] = v;
    }
  }
  return { min, max };
}

/** Sizes and ranges of `result`, never its samples. */
export function summarizeResult(result: StoredResult): Record<string, unknown> {
  switch (result.type) {
    case 'mesh':
      return {
        type: 'mesh',
        vertices: Math.floor(result.vertices.length / 3),
        triangles: Math.floor(result.indices.length / 3),
        has_normals: result.normals !== undefined,
        has_colors: result.colors !== undefined,
        bounds: bounds(result.vertices),
      };
    case 'volume':
      return {
        ...volumeInfo(result),
        // A segmentation says so: an agent can then ask for a segment's surface (segment=N).
        ...(result.labels ? { labels: true, label_names: result.label_names ?? {} } : {}),
      };
    case 'point_cloud':
      return {
        type: 'point_cloud',
        points: Math.floor(result.points.length / 3),
        has_colors: result.colors !== undefined,
        scalar_range: result.scalars ? (valueRange(result.scalars) ?? null) : null,
        bounds: bounds(result.points),
      };
    case 'image':
      return {
        type: 'image',
        width: result.width,
        height: result.height,
        channels: result.channels,
        dtype: result.dtype ?? (result.data instanceof Uint16Array ? 'uint16' : result.data instanceof Float32Array ? 'float32' : 'uint8'),
      };
  }
}
