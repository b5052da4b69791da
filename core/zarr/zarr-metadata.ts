/**
 * @module zarr-metadata
 * The metadata documents of a volume result as an OME-Zarr v0.4 image on Zarr v2: the root
 * `.zgroup`, the root `.zattrs` with one `multiscales` entry (one dataset per pyramid level,
 * paths `0`, `1`, ..., each with its voxel size as `scale` and the origin as `translation`)
 * and an `omero` display window over the value range, and `<level>/.zarray` (C order,
 * gzip-compressed chunks named `z/y/x`: NGFF allows only "/" as the separator). napari
 * (napari-ome-zarr), vizarr and Neuroglancer open such a store by URL.
 */
import { NUMPY_TYPESTR } from '../envelope/dtypes.ts';
import { valueRange } from '../envelope/value-range.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { omeSpaceUnit } from './ome-unit.ts';
import { LABEL_DOWNSAMPLING } from './label-image.ts';

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

/** The `.zarray` of one level. */
export function zarray(level: VolumeOfStore): object {
  return {
    zarr_format: 2,
    shape: level.shape,
    chunks: chunkShapeOf(level.shape),
    dtype: NUMPY_TYPESTR[level.dtype],
    compressor: { id: 'gzip', level: GZIP_LEVEL },
    fill_value: 0,
    order: 'C',
    filters: null,
    dimension_separator: '/',
  };
}

/** The axes, spatial ones with the volume's unit when NGFF knows it. */
function axesOf(volume: VolumeOfStore): object[] {
  const unit = omeSpaceUnit(volume.unit);
  return AXES[volume.shape.length]!.map((axis) => (axis.type === 'space' && unit ? { ...axis, unit } : axis));
}

/** The display window: the value range (finite samples), or 0..1 when there is none. */
function omero(volume: VolumeOfStore, name: string): object {
  const [min, max] = volume.valueRange ?? valueRange(volume.data) ?? [0, 1];
  const channelAxis = AXES[volume.shape.length]!.findIndex((axis) => axis.type === 'channel');
  const count = channelAxis < 0 ? 1 : volume.shape[channelAxis]!;
  const depth = volume.shape.length >= 3 ? volume.shape[volume.shape.length - 3]! : 1;
  const channel = (c: number) => ({
    active: true,
    coefficient: 1,
    color: 'FFFFFF',
    family: 'linear',
    inverted: false,
    label: count === 1 ? name : `channel ${c}`,
    window: { min, max, start: min, end: max },
  });
  return {
    version: '0.4',
    name,
    channels: Array.from({ length: count }, (_, c) => channel(c)),
    rdefs: { defaultT: 0, defaultZ: Math.floor(depth / 2), model: 'greyscale' },
  };
}

/**
 * The root `.zattrs` of a store whose levels are `levels` (level 0, the volume, first). A
 * segmentation passes its `image-label` (label-image.ts) and has no display window.
 */
export function zattrs(levels: readonly VolumeOfStore[], name: string, imageLabel?: object): object {
  const volume = levels[0]!;
  const n = volume.shape.length;
  const base = volume.spacing?.length === n ? volume.spacing : new Array<number>(n).fill(1);
  const datasets = levels.map((level, index) => {
    // A level's voxel is its parent's times the halving along each axis.
    const scale = base.map((s, axis) => s * factorOf(volume.shape[axis]!, level.shape[axis]!));
    const transforms: object[] = [{ type: 'scale', scale }];
    if (volume.origin?.length === n) transforms.push({ type: 'translation', translation: volume.origin });
    return { path: String(index), coordinateTransformations: transforms };
  });
  return {
    multiscales: [
      {
        version: '0.4',
        name,
        axes: axesOf(volume),
        datasets,
        ...(imageLabel
          ? { type: LABEL_DOWNSAMPLING.type, metadata: { description: LABEL_DOWNSAMPLING.description } }
          : { type: 'mean', metadata: { description: 'each level halves every spatial axis longer than 1 by averaging' } }),
      },
    ],
    ...(imageLabel ? { 'image-label': imageLabel } : { omero: omero(volume, name) }),
  };
}

/** How many samples of level 0 one sample of a level spans along an axis (a power of two). */
function factorOf(full: number, reduced: number): number {
  let factor = 1;
  let n = full;
  while (n > reduced) {
    n = Math.ceil(n / 2);
    factor *= 2;
  }
  return factor;
}
