/**
 * @module zarr-metadata
 * The metadata documents of a volume result as an OME-Zarr v0.4 image on Zarr v2: the root
 * `.zgroup`, the root `.zattrs` with one `multiscales` entry (a single level, path `0`, the
 * voxel spacing as its scale and the origin as its translation), and `0/.zarray` (C order,
 * gzip-compressed chunks named `z.y.x`). napari (napari-ome-zarr), vizarr and Neuroglancer
 * open such a store by URL.
 */
import { NUMPY_TYPESTR } from '../envelope/dtypes.ts';
import type { StoredResult } from '../results/stored-result.ts';

export type VolumeOfStore = StoredResult & { type: 'volume' };

/** Samples per chunk along each of the last three axes (1 along any axis before them). */
const CHUNK_EDGE = 64;

/** gzip level of the chunks: level 1 is several times faster than 6 and nearly as small on volumes. */
export const GZIP_LEVEL = 1;

/** OME-Zarr axes for 2 to 5 dimensions: up to three spatial axes last, channel and time before. */
const AXES: Record<number, { name: string; type: string }[]> = {
  2: [{ name: 'y', type: 'space' }, { name: 'x', type: 'space' }],
  3: [{ name: 'z', type: 'space' }, { name: 'y', type: 'space' }, { name: 'x', type: 'space' }],
  4: [{ name: 'c', type: 'channel' }, { name: 'z', type: 'space' }, { name: 'y', type: 'space' }, { name: 'x', type: 'space' }],
  5: [{ name: 't', type: 'time' }, { name: 'c', type: 'channel' }, { name: 'z', type: 'space' }, { name: 'y', type: 'space' }, { name: 'x', type: 'space' }],
};

/** Whether OME-Zarr can describe a volume of this many dimensions. */
export function hasOmeAxes(volume: VolumeOfStore): boolean {
  return Object.hasOwn(AXES, volume.shape.length);
}

/** The chunk shape: at most 64 along the last three axes, 1 along the others. */
export function chunkShapeOf(shape: readonly number[]): number[] {
  return shape.map((n, axis) => (axis >= shape.length - 3 ? Math.max(1, Math.min(n, CHUNK_EDGE)) : 1));
}

export function zgroup(): object {
  return { zarr_format: 2 };
}

export function zarray(volume: VolumeOfStore): object {
  return {
    zarr_format: 2,
    shape: volume.shape,
    chunks: chunkShapeOf(volume.shape),
    dtype: NUMPY_TYPESTR[volume.dtype],
    compressor: { id: 'gzip', level: GZIP_LEVEL },
    fill_value: 0,
    order: 'C',
    filters: null,
    dimension_separator: '.',
  };
}

export function zattrs(volume: VolumeOfStore, name: string): object {
  const n = volume.shape.length;
  const transforms: object[] = [{ type: 'scale', scale: volume.spacing?.length === n ? volume.spacing : new Array<number>(n).fill(1) }];
  if (volume.origin?.length === n) transforms.push({ type: 'translation', translation: volume.origin });
  return {
    multiscales: [{ version: '0.4', name, axes: AXES[n], datasets: [{ path: '0', coordinateTransformations: transforms }] }],
  };
}
