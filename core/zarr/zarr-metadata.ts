/**
 * @module zarr-metadata
 * The metadata documents of a volume result as an OME-Zarr v0.4 image on Zarr v2: the root
 * `.zgroup`, the root `.zattrs` with one `multiscales` entry (its axes with their types and
 * units: `time`, `channel`, `space`; one dataset per pyramid level, paths `0`, `1`, ..., each
 * with its voxel size and time step as `scale` and the origin as `translation`) and `omero`
 * (each channel's label, colour and display window), and `<level>/.zarray` (C order,
 * gzip-compressed chunks named `t/c/z/y/x`, one step of one channel per chunk: NGFF allows
 * only "/" as the separator). napari (napari-ome-zarr), vizarr and Neuroglancer open such a
 * store by URL.
 */
import { NUMPY_TYPESTR } from '../envelope/dtypes.ts';
import { valueRange } from '../envelope/value-range.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { omeSpaceUnit, omeTimeUnit } from './ome-unit.ts';
import { LABEL_DOWNSAMPLING } from './label-image.ts';
import { channelWindows } from '../results/channel-windows.ts';
import { hasSteps } from '../results/volume-axes.ts';

export type VolumeOfStore = StoredResult & { type: 'volume' };

/** Samples per chunk along each of the last three axes (1 along any axis before them). */
const CHUNK_EDGE = 64;

/** gzip level of the chunks: level 1 is several times faster than 6 and nearly as small on volumes. */
export const GZIP_LEVEL = 1;

/** OME-Zarr axes for 2 to 5 dimensions: up to three spatial axes last, channel and time before. */
const AXES: Record<number, string> = { 2: 'yx', 3: 'zyx', 4: 'czyx', 5: 'tczyx' };

/** Whether OME-Zarr can describe a volume of this many dimensions. */
export function hasOmeAxes(volume: VolumeOfStore): boolean {
  return hasSteps(volume) || Object.hasOwn(AXES, volume.shape.length);
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

/** The axes of a volume: those it names (`tczyx`, `czyx`, `tzyx`), else by its dimensions. */
function axisList(volume: VolumeOfStore): { name: string; type: string }[] {
  const names = hasSteps(volume) ? volume.axes! : AXES[volume.shape.length]!;
  return [...names].map((name) => ({ name, type: name === 't' ? 'time' : name === 'c' ? 'channel' : 'space' }));
}

/** The axes' names in order (`zyx`, `czyx`, `tczyx`, ...), as the store declares them. */
export function axisNamesOf(volume: VolumeOfStore): string {
  return axisList(volume).map((axis) => axis.name).join('');
}

/** The axes, spatial ones with the volume's length unit and time with its time unit, when NGFF knows them. */
function axesOf(volume: VolumeOfStore): object[] {
  const space = omeSpaceUnit(volume.unit);
  const time = omeTimeUnit(volume.time_unit);
  return axisList(volume).map((axis) => {
    const unit = axis.type === 'space' ? space : axis.type === 'time' ? time : undefined;
    return unit ? { ...axis, unit } : axis;
  });
}

/** Default channel colours: a vector's components red, green, blue; else green, magenta, cyan ... */
const VECTOR_COLORS = ['FF0000', '00FF00', '0000FF'];
const CHANNEL_COLORS = ['00FF00', 'FF00FF', '00FFFF', 'FFFF00', 'FF0000', '0000FF', 'FFFFFF'];

function colorOf(volume: VolumeOfStore, c: number, count: number): string {
  const given = volume.channels?.[c]?.color;
  if (given) return given.slice(1).toUpperCase();
  if (count === 1) return 'FFFFFF';
  return volume.vector ? VECTOR_COLORS[c]! : CHANNEL_COLORS[c % CHANNEL_COLORS.length]!;
}

/**
 * The display settings: per channel its label, colour and window. A volume that describes its
 * channels (or has time or channels) gets their names, colours and windows, defaults where
 * it names none (colours from a standard list, windows from percentiles of its samples); a
 * plain volume one white channel over its value range.
 */
function omero(volume: VolumeOfStore, name: string): object {
  const [min, max] = volume.valueRange ?? valueRange(volume.data) ?? [0, 1];
  const channelAxis = axisList(volume).findIndex((axis) => axis.type === 'channel');
  const count = channelAxis < 0 ? 1 : volume.shape[channelAxis]!;
  const depth = volume.shape.length >= 3 ? volume.shape[volume.shape.length - 3]! : 1;
  const described = hasSteps(volume) || volume.channels !== undefined;
  const windows = described ? channelWindows(volume) : [];
  const channel = (c: number) => {
    const [lo, hi] = volume.channelRanges?.[c] ?? [min, max];
    const [start, end] = windows[c] ?? [min, max];
    return {
      active: true,
      coefficient: 1,
      color: described ? colorOf(volume, c, count) : 'FFFFFF',
      family: 'linear',
      inverted: false,
      label: volume.channels?.[c]?.name ?? (count === 1 ? name : `channel ${c}`),
      window: { min: Math.min(lo, start), max: Math.max(hi, end), start, end },
    };
  };
  return {
    version: '0.4',
    name,
    channels: Array.from({ length: count }, (_, c) => channel(c)),
    rdefs: { defaultT: 0, defaultZ: Math.floor(depth / 2), model: count > 1 ? 'color' : 'greyscale' },
  };
}

/** Level 0's scale and translation along every axis: the time step along t, 1 along c, the voxel along space. */
function baseTransforms(volume: VolumeOfStore): { scale: number[]; translation: number[] | null } {
  const axes = axisList(volume);
  const spatial = axes.filter((axis) => axis.type === 'space').length;
  const along = (values: number[] | undefined, time: number, other: number): number[] => {
    // A volume of space only may give one value per axis it has; with time or channels, three spatial ones.
    if (values?.length === axes.length) return values;
    let k = 0;
    return axes.map((axis) => (axis.type === 'space' ? (values?.length === spatial ? values[k++]! : other) : axis.type === 'time' ? time : other));
  };
  return { scale: along(volume.spacing, volume.time_step ?? 1, 1), translation: volume.origin ? along(volume.origin, 0, 0) : null };
}

/**
 * The root `.zattrs` of a store whose levels are `levels` (level 0, the volume, first). A
 * segmentation passes its `image-label` (label-image.ts) and has no display window.
 */
export function zattrs(levels: readonly VolumeOfStore[], name: string, imageLabel?: object): object {
  const volume = levels[0]!;
  const { scale: base, translation } = baseTransforms(volume);
  const datasets = levels.map((level, index) => {
    // A level's voxel is its parent's times the halving along each axis.
    const scale = base.map((s, axis) => s * factorOf(volume.shape[axis]!, level.shape[axis]!));
    const transforms: object[] = [{ type: 'scale', scale }];
    if (translation) transforms.push({ type: 'translation', translation });
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
          : {
              type: 'mean',
              metadata: { description: 'each level halves every spatial axis longer than 1 by averaging; time and channels keep their length' },
            }),
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
