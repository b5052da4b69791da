/**
 * @module volume-field
 * A volume input as a sampled field for surface nets: the volume's C-order samples (slowest
 * axis first) are the grid's z, y, x (x fastest), so the data is only converted to float32;
 * its spacing and origin, given in array axis order, are reversed into x, y, z. A volume
 * without spacing gets unit voxels centred on the origin.
 */
import type { VolumeInput } from 'vitrine';
import type { SampledField } from './sampled-field.ts';

export function volumeField(volume: VolumeInput): SampledField {
  const [nz, ny, nx] = volume.shape as [number, number, number];
  const values = volume.data instanceof Float32Array ? volume.data : Float32Array.from(volume.data as ArrayLike<number>);
  const spacing = (volume.spacing ?? [1, 1, 1]).slice().reverse() as [number, number, number];
  const origin = (volume.origin?.slice().reverse() as [number, number, number] | undefined) ?? [
    (-(nx - 1) * spacing[0]) / 2,
    (-(ny - 1) * spacing[1]) / 2,
    (-(nz - 1) * spacing[2]) / 2,
  ];
  return { values, dims: [nx, ny, nz], origin, spacing };
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
