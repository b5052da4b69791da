/**
 * @module select-step
 * One 3-D step of a volume with time or channels, as a delivery sends it. A channel of a step
 * is a view onto the result's own shared memory (no copy: the steps of a `tczyx` array lie
 * one after the other), carrying its channel's range over every step as its value range, so
 * an integer delivery maps the same value to the same integer at every step. A vector field's
 * `magnitude` is computed (float32, range [0, m]); its `rgb` maps each component from [-m, m]
 * (or the asked window) onto 0..255, m being the largest magnitude over the whole field, as
 * uint8 with a last axis of 3, after any `max_dim` averaging of the components. Runs on the
 * encode worker thread.
 */
import type { StoredVolume } from '../results/stored-result.ts';
import { axisSizes, blockOffset, stepLayout, type StepChannel, type StepLayout, type VolumeStep } from '../results/volume-axes.ts';
import type { VolumeResult } from '../sdk/result-types.ts';
import { averageBlocks } from '../pyramid/block-mean.ts';
import type { DeliveryOptions } from './delivery-options.ts';

/** What a step tells its client about the whole it comes from. */
function stepOf(volume: StoredVolume, t: number, c: StepChannel): VolumeStep {
  const step: VolumeStep = { t, c, sizes: axisSizes(volume) };
  if (volume.channels) step.channels = volume.channels;
  if (volume.time_step !== undefined) step.time_step = volume.time_step;
  if (volume.time_unit !== undefined) step.time_unit = volume.time_unit;
  if (volume.vector) step.vector = true;
  return step;
}

/** The spatial fields every step keeps. */
function spatial(volume: StoredVolume): Partial<StoredVolume> {
  return {
    ...(volume.spacing ? { spacing: volume.spacing } : {}),
    ...(volume.origin ? { origin: volume.origin } : {}),
    ...(volume.unit ? { unit: volume.unit } : {}),
  };
}

/** Block (t, c) as a view onto the volume's memory. */
function block(volume: StoredVolume, layout: StepLayout, t: number, c: number): VolumeResult['data'] {
  const start = blockOffset(layout, t, c);
  return volume.data.subarray(start, start + layout.voxels) as VolumeResult['data'];
}

function magnitudeOf(x: ArrayLike<number>, y: ArrayLike<number>, z: ArrayLike<number>): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(x.length * 4));
  for (let i = 0; i < x.length; i++) out[i] = Math.sqrt(x[i]! * x[i]! + y[i]! * y[i]! + z[i]! * z[i]!);
  return out;
}

/** Components onto 0..255 from [lo, hi], interleaved (the last axis holds x, y, z). */
function toRgb(components: ArrayLike<number>[], [lo, hi]: [number, number]): Uint8Array {
  const n = components[0]!.length;
  const out = new Uint8Array(new SharedArrayBuffer(n * 3));
  const scale = 255 / (hi - lo);
  for (let k = 0; k < 3; k++) {
    const v = components[k]!;
    for (let i = 0, o = k; i < n; i++, o += 3) {
      const mapped = Math.round((v[i]! - lo) * scale);
      out[o] = mapped < 0 ? 0 : mapped > 255 ? 255 : mapped;
    }
  }
  return out;
}

/** Step `t`'s direction colours, averaged down to `max_dim` first when asked. */
function rgbStep(volume: StoredVolume, layout: StepLayout, t: number, options: DeliveryOptions): StoredVolume {
  let space: number[] = layout.space;
  let spacing = volume.spacing;
  let components: ArrayLike<number>[] = [0, 1, 2].map((c) => block(volume, layout, t, c));
  if (options.max_dim !== undefined && space.some((n) => n > options.max_dim!)) {
    const averaged = components.map((data) => averageBlocks(data, layout.space, options.max_dim!));
    components = averaged.map((a) => a.data);
    space = averaged[0]!.shape;
    spacing = (volume.spacing ?? [1, 1, 1]).map((s, axis) => (s * layout.space[axis]!) / space[axis]!);
  }
  // The largest magnitude is the colours' half-range (a field of zeros maps to mid-grey).
  const m = volume.magnitudeMax || 1;
  const window = options.window ?? [-m, m];
  const data = toRgb(components, window);
  const shaped = { type: 'volume', shape: [...space, 3], dtype: 'uint8', data, ...spatial(volume), step: stepOf(volume, t, 'rgb') } as StoredVolume;
  if (spacing) shaped.spacing = spacing;
  shaped.valueRange = [window[0], window[1]];
  return shaped;
}

/**
 * Step `t` of channel `c` (or a vector mode) of a volume with time or channels, before any
 * other shaping: a view, a magnitude, or (for `rgb`) the finished delivery.
 */
export function selectStep(volume: StoredVolume, options: DeliveryOptions): { step: StoredVolume; finished: boolean } {
  const layout = stepLayout(volume);
  const t = options.t ?? 0;
  const c = options.c ?? 0;
  if (c === 'rgb') return { step: rgbStep(volume, layout, t, options), finished: true };
  const shape = [...layout.space];
  const around = { ...spatial(volume), step: stepOf(volume, t, c) };
  if (c === 'magnitude') {
    const data = magnitudeOf(block(volume, layout, t, 0), block(volume, layout, t, 1), block(volume, layout, t, 2));
    const valueRange: [number, number] = [0, volume.magnitudeMax ?? 0];
    const step = { type: 'volume', shape, dtype: 'float32', data, ...around, valueRange } as StoredVolume;
    return { step, finished: false };
  }
  const step = { type: 'volume', shape, dtype: volume.dtype, data: block(volume, layout, t, c), ...around } as StoredVolume;
  const range = volume.channelRanges?.[c];
  if (range) step.valueRange = [range[0], range[1]];
  return { step, finished: false };
}
