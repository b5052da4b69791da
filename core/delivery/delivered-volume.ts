/**
 * @module delivered-volume
 * What a volume delivered sized or typed for its client is made of, for volumes
 * (shape-volume.ts) and segmentations (shape-labels.ts) alike: output arrays in shared memory
 * like every stored result, the spacing of a reduced volume (scaled so the physical extent
 * stays), and the volume itself, keeping the input's origin and unit.
 */
import { TYPED_ARRAYS, type DType } from '../envelope/dtypes.ts';
import type { StoredVolume } from '../results/stored-result.ts';
import type { VolumeResult } from '../sdk/result-types.ts';

/** A typed array of `dtype` and `length` in shared memory. */
export function sharedArray(dtype: DType, length: number): VolumeResult['data'] {
  const Ctor = TYPED_ARRAYS[dtype] as unknown as { new (buffer: ArrayBufferLike): VolumeResult['data']; BYTES_PER_ELEMENT: number };
  return new Ctor(new SharedArrayBuffer(length * Ctor.BYTES_PER_ELEMENT));
}

/** The spacing of `volume` reduced to `shape`: each axis's spacing grown by how much it shrank. */
export function reducedSpacing(volume: StoredVolume, shape: readonly number[]): number[] {
  const base = volume.spacing ?? volume.shape.map(() => 1);
  return base.map((s, axis) => (s * volume.shape[axis]!) / shape[axis]!);
}

/** The delivered volume: `shape`, `dtype`, `data` and `spacing` (when any), with the input's origin and unit. */
export function deliveredVolume(
  volume: StoredVolume,
  shape: number[],
  dtype: DType,
  data: VolumeResult['data'],
  spacing: number[] | undefined,
): StoredVolume {
  return {
    type: 'volume',
    shape,
    dtype,
    data,
    ...(spacing ? { spacing } : {}),
    ...(volume.origin ? { origin: volume.origin } : {}),
    ...(volume.unit ? { unit: volume.unit } : {}),
  } as StoredVolume;
}
