/**
 * @module volume-field
 * A volume input as a sampled field for surface nets: the volume's C-order samples (slowest
 * axis first) are the grid's z, y, x (x fastest), so the data is only converted to float32;
 * its spacing and origin are the host's frame of it (vitrine's volumeFrameOf: x, y, z, spacing
 * 1 and origin 0 where the volume states none), so the surface lies where the page, the room's
 * picture and Neuroglancer draw the volume, whether or not it was published with an origin.
 */
import type { VolumeInput } from 'vitrine';
import { volumeFrameOf } from 'vitrine';
import type { SampledField } from './sampled-field.ts';

export function volumeField(volume: VolumeInput): SampledField {
  const values = volume.data instanceof Float32Array ? volume.data : Float32Array.from(volume.data as ArrayLike<number>);
  const { size, spacing, origin } = volumeFrameOf(volume);
  return { values, dims: size, origin, spacing };
}

/** The finite [min, max] of the samples. */
export function sampleRange(values: Float32Array): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return Number.isFinite(min) ? [min, max] : [0, 0];
}
