/**
 * @module shape-labels
 * A segmentation sized and typed for its client without ever averaging ids: `max_dim` picks
 * each block's most frequent non-zero id (pyramid/block-mode.ts, as the OME-Zarr levels do),
 * and an integer `dtype` too narrow for the ids renumbers them (labels/label-remap.ts: the ids
 * present, in ascending order, become 1, 2, 3, ...), names and colours following. A window
 * means nothing for ids and is not applied. The delivered volume stays labels and its
 * `valueRange` is that of the ids it holds. Runs on the encode worker thread.
 */
import type { DType } from '../envelope/dtypes.ts';
import { valueRange } from '../envelope/value-range.ts';
import { renumber, renumberedFields, renumberingOf } from '../labels/label-remap.ts';
import { blockMeanShape } from '../pyramid/block-mean.ts';
import { blockMode } from '../pyramid/block-mode.ts';
import { labelFieldsOf } from '../results/label-fields.ts';
import { deliveredVolume, reducedSpacing, sharedArray } from './delivered-volume.ts';
import type { StoredVolume } from '../results/stored-result.ts';
import type { DeliveryOptions } from './delivery-options.ts';

/** The largest id each delivered integer type holds. */
const INTEGER_MAX: Partial<Record<DType, number>> = { uint8: 255, uint16: 65535, uint32: 4294967295 };

/** The labels volume as the options deliver it (the input when they change nothing). */
export function shapeLabels(volume: StoredVolume, options: DeliveryOptions): StoredVolume {
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
  const max = INTEGER_MAX[dtype];
  // Numbered over the whole volume, so every size of delivery numbers an id alike.
  const renumbering = max === undefined ? null : renumberingOf(volume.data, max);
  const data = sharedArray(dtype, samples.length);
  if (renumbering) renumber(samples, renumbering, data);
  else (data as Float64Array).set(samples);
  const shaped = deliveredVolume(volume, shape, dtype, data, spacing);
  const range = valueRange(data);
  if (range) shaped.valueRange = range;
  return Object.assign(shaped, renumberedFields(labelFieldsOf(volume)!, renumbering));
}
