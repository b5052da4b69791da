/**
 * @module volume-info
 * What a client or an agent is told about a volume result without its samples: shape, dtype,
 * geometry, value range and, with time or channels, its axes, the size of each
 * (`{"t": 301, "c": 3, "z": 20, "y": 100, "x": 100}`), its channels, time step and unit,
 * whether it is a vector field, each channel's range over every step and a vector field's
 * largest magnitude. `GET /api/results/{result_id}` answers it; the agents' summary holds it.
 */
import { valueRange } from '../envelope/value-range.ts';
import type { StoredVolume } from './stored-result.ts';
import { AXES_FIELD_NAMES, axisSizes, hasSteps } from './volume-axes.ts';

export function volumeInfo(volume: StoredVolume): Record<string, unknown> {
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
