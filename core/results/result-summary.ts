/**
 * @module result-summary
 * What an agent (or `GET /api/results/{result_id}`) is told about a result instead of its bytes: its type and sizes (vertex and
 * triangle counts, a volume's shape, dtype, voxel size and axes, an image's size), its value range
 * or bounds, its result id and where its data can be fetched.
 */
import { valueRange } from '../envelope/value-range.ts';
import type { StoredResult, StoredVolume } from './stored-result.ts';
import { AXES_FIELD_NAMES, axisSizes, hasSteps } from './volume-axes.ts';

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

/**
 * What a client or an agent is told about a volume result without its samples: shape, dtype,
 * geometry, value range and, with time or channels, its axes, the size of each
 * (`{"t": 301, "c": 3, "z": 20, "y": 100, "x": 100}`), its channels, time step and unit,
 * whether it is a vector field, each channel's range over every step and a vector field's
 * largest magnitude.
 */
function volumeInfo(volume: StoredVolume): Record<string, unknown> {
  const info: Record<string, unknown> = {
    type: 'volume',
    shape: volume.shape,
    dtype: volume.dtype,
    voxels: volume.data.length,
    spacing: volume.spacing ?? null,
    origin: volume.origin ?? null,
    unit: volume.unit ?? null,
    value_range: volume.valueRange ?? valueRange(volume.data) ?? null,
    sizes: axisSizes(volume),
  };
  if (!hasSteps(volume)) return info;
  for (const name of AXES_FIELD_NAMES) if (volume[name] !== undefined) info[name] = volume[name];
  if (volume.channelRanges) info.channel_ranges = volume.channelRanges;
  if (volume.magnitudeMax !== undefined) info.magnitude_max = volume.magnitudeMax;
  return info;
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
