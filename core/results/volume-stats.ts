/**
 * @module volume-stats
 * What a volume with steps keeps about its samples, worked out once where the result is
 * checked (a worker thread, a plugin process or the encode thread): each channel's finite
 * [min, max] over every step, so a step delivered as integers maps the same value to the
 * same integer whatever the step (playback does not flicker), and for a vector field the
 * largest magnitude m, which maps components from [-m, m] for direction colours.
 */
import { valueRange } from '../envelope/value-range.ts';
import { blockOffset, type StepLayout } from './volume-axes.ts';

export interface VolumeStats {
  /** Finite [min, max] over every sample (absent when there is none). */
  valueRange?: [number, number];
  /** Per channel, finite [min, max] over every step ([0, 0] for a channel with none). */
  channelRanges: [number, number][];
  /** Vector fields: the largest finite magnitude over every voxel of every step. */
  magnitudeMax?: number;
}

/** A volume's samples, whose blocks are read as views. */
type Samples = ArrayLike<number> & { subarray(a: number, b: number): ArrayLike<number> };

/** Each channel's range over every step, and the whole volume's from them (one pass). */
function rangesOf(data: Samples, layout: StepLayout): { ranges: [number, number][]; all?: [number, number] } {
  const lows = new Array<number>(layout.channels).fill(Infinity);
  const highs = new Array<number>(layout.channels).fill(-Infinity);
  for (let t = 0; t < layout.steps; t++) {
    for (let c = 0; c < layout.channels; c++) {
      const start = blockOffset(layout, t, c);
      const range = valueRange(data.subarray(start, start + layout.voxels));
      if (!range) continue;
      lows[c] = Math.min(lows[c]!, range[0]);
      highs[c] = Math.max(highs[c]!, range[1]);
    }
  }
  const ranges = lows.map((lo, c): [number, number] => (lo <= highs[c]! ? [lo, highs[c]!] : [0, 0]));
  const lo = Math.min(...lows);
  const hi = Math.max(...highs);
  return { ranges, ...(lo <= hi ? { all: [lo, hi] as [number, number] } : {}) };
}

/** The largest finite |v| of a field whose channels 0, 1, 2 are its components. */
export function magnitudeMaxOf(data: ArrayLike<number>, layout: StepLayout): number {
  let top = 0;
  for (let t = 0; t < layout.steps; t++) {
    const x0 = blockOffset(layout, t, 0);
    const y0 = blockOffset(layout, t, 1);
    const z0 = blockOffset(layout, t, 2);
    for (let i = 0; i < layout.voxels; i++) {
      const x = data[x0 + i]!;
      const y = data[y0 + i]!;
      const z = data[z0 + i]!;
      const squared = x * x + y * y + z * z;
      // NaN and infinities fail the comparison's finite test and are passed over.
      if (squared > top && squared < Infinity) top = squared;
    }
  }
  return Math.sqrt(top);
}

/** The stats of a volume's samples laid out as `layout`. */
export function volumeStats(data: Samples, layout: StepLayout, vector: boolean): VolumeStats {
  const { ranges, all } = rangesOf(data, layout);
  const stats: VolumeStats = { channelRanges: ranges };
  if (all) stats.valueRange = all;
  if (vector) stats.magnitudeMax = magnitudeMaxOf(data, layout);
  return stats;
}
