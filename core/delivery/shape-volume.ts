/**
 * @module shape-volume
 * A volume sized and typed for its client: `max_dim` averages blocks of samples so no axis
 * has more than N (spacing scaled so the physical extent stays), `dtype` converts the
 * samples, mapping the window linearly onto 0..2^bits-1 for integer types (rounded, clamped).
 * The delivered `valueRange` is then the window: what 0 and the largest integer stand for.
 * Runs on the encode worker thread; the output arrays are shared memory like every stored
 * result, and a delivered volume keeps the input's origin and unit.
 *
 * A segmentation is sized and typed without ever averaging ids: `max_dim` picks each block's
 * most frequent non-zero id (pyramid/block-mode.ts, as the OME-Zarr levels do), and an integer
 * `dtype` too narrow for the ids renumbers them (labels/label-remap.ts: the ids present, in
 * ascending order, become 1, 2, 3, ...), names and colours following. A window means nothing
 * for ids and is not applied. The delivered volume stays labels and its `valueRange` is that
 * of the ids it holds.
 */
import type { DType } from '../envelope/dtypes.ts';
import { valueRange } from '../envelope/value-range.ts';
import { renumber, renumberedFields, renumberingOf } from '../labels/label-remap.ts';
import { averageBlocks, blockMeanShape } from '../pyramid/block-mean.ts';
import { blockMode } from '../pyramid/block-mode.ts';
import { sharedSamples } from '../pyramid/volume-pyramid.ts';
import { isLabelDType, LABEL_MAX, labelFieldsOf } from '../results/label-fields.ts';
import type { VolumeResult } from '../sdk/result-types.ts';
import type { StoredVolume } from '../results/stored-result.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import { hasSteps } from '../results/volume-axes.ts';
import { selectStep } from './select-step.ts';

const INTEGER_MAX: Partial<Record<DType, number>> = { uint8: 255, uint16: 65535 };

/** The spacing of `volume` reduced to `shape`: each axis's spacing grown by how much it shrank. */
function reducedSpacing(volume: StoredVolume, shape: readonly number[]): number[] {
  const base = volume.spacing ?? volume.shape.map(() => 1);
  return base.map((s, axis) => (s * volume.shape[axis]!) / shape[axis]!);
}

/** The delivered volume: `shape`, `dtype`, `data` and `spacing` (when any), with the input's origin and unit. */
function deliveredVolume(
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

/** Converts samples to `dtype`: integer types map `window` onto 0..max (rounded, clamped). */
function convert(values: ArrayLike<number>, dtype: DType, window: [number, number] | undefined): VolumeResult['data'] {
  const out = sharedSamples(dtype, values.length);
  const max = INTEGER_MAX[dtype];
  if (max === undefined) {
    const float = dtype === 'float32' || dtype === 'float64';
    for (let i = 0; i < values.length; i++) out[i] = float ? values[i]! : Math.round(values[i]!);
    return out;
  }
  const [lo, hi] = window ?? [0, max];
  const scale = hi > lo ? max / (hi - lo) : 0;
  for (let i = 0; i < values.length; i++) {
    const v = Math.round((values[i]! - lo) * scale);
    out[i] = v < 0 ? 0 : v > max ? max : v;
  }
  return out;
}

/** The labels volume as the options deliver it (the input when they change nothing). */
function shapeLabels(volume: StoredVolume, options: DeliveryOptions): StoredVolume {
  const reduce = options.max_dim !== undefined && volume.shape.some((n) => n > options.max_dim!);
  const dtype: DType = options.dtype ?? volume.dtype;
  if (!reduce && dtype === volume.dtype) return volume;
  let samples: ArrayLike<number> = volume.data;
  let shape = volume.shape;
  let spacing = volume.spacing;
  if (reduce) {
    const factors = shape.map((n) => Math.max(1, Math.ceil(n / options.max_dim!)));
    shape = blockMeanShape(volume.shape, factors);
    const picked = new Uint32Array(shape.reduce((a, b) => a * b, 1));
    blockMode(volume.data, volume.shape, factors, picked);
    samples = picked;
    spacing = reducedSpacing(volume, shape);
  }
  // The largest id a label dtype holds; any other type keeps the ids as they are.
  const max = isLabelDType(dtype) ? LABEL_MAX[dtype] : undefined;
  // Numbered over the whole volume, so every size of delivery numbers an id alike.
  const renumbering = max === undefined ? null : renumberingOf(volume.data, max);
  const data = sharedSamples(dtype, samples.length);
  if (renumbering) renumber(samples, renumbering, data);
  else (data as Float64Array).set(samples);
  const shaped = deliveredVolume(volume, shape, dtype, data, spacing);
  const range = valueRange(data);
  if (range) shaped.valueRange = range;
  return Object.assign(shaped, renumberedFields(labelFieldsOf(volume)!, renumbering));
}

/**
 * The volume as the options deliver it (the input is returned when nothing changes). A volume
 * with time or channels is delivered one step at a time: the step is chosen first
 * (select-step.ts), then shaped as any volume; labels never averaged (shapeLabels).
 */
export function shapeVolume(whole: StoredVolume, options: DeliveryOptions): StoredVolume {
  let volume = whole;
  if (hasSteps(whole)) {
    const { step, finished } = selectStep(whole, options);
    if (finished) return step;
    volume = step;
  }
  if (volume.labels) return shapeLabels(volume, options);
  const ownRange = volume.valueRange ?? valueRange(volume.data);
  const reduce = options.max_dim !== undefined && volume.shape.some((n) => n > options.max_dim!);
  // An asked-for dtype always maps the window, its own type included: the client is told
  // (value_range) what the delivered 0 and maximum stand for.
  const converts = options.dtype !== undefined;
  // The window an integer dtype maps: the one asked for, else the data's own range.
  const window = options.window ?? ownRange;
  if (!reduce && !converts && options.window === undefined) return volume;
  let samples: ArrayLike<number> = volume.data;
  let shape = volume.shape;
  let spacing = volume.spacing;
  if (reduce) {
    const averaged = averageBlocks(volume.data, volume.shape, options.max_dim!);
    samples = averaged.data;
    shape = averaged.shape;
    spacing = reducedSpacing(volume, shape);
  }
  const dtype: DType = options.dtype ?? volume.dtype;
  const integerOut = INTEGER_MAX[dtype] !== undefined;
  // Asked-for integer types map the window; a volume kept in its own integer type is only
  // rounded after averaging.
  const mapped = options.dtype !== undefined && integerOut;
  const data = convert(samples, dtype, mapped ? window : integerOut ? [0, INTEGER_MAX[dtype]!] : undefined);
  // A step keeps its channel's range over every step: averaging stays within it.
  const range = mapped || options.window !== undefined ? window : volume.step ? ownRange : valueRange(data);
  const shaped = deliveredVolume(volume, shape, dtype, data, spacing);
  if (volume.step) shaped.step = volume.step;
  if (range) shaped.valueRange = [range[0], range[1]];
  return shaped;
}
