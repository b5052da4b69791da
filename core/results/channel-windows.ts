/**
 * @module channel-windows
 * Display windows for the channels of a volume that names none: from the 0.1st to the 99.9th
 * percentile of each channel's samples over every step, so a few hot pixels do not dim the
 * rest. The percentiles come from an evenly strided sample of at most 65,536 samples per
 * channel: the same volume gives the same windows on every host, and a 722 MB field costs a
 * few milliseconds. A channel whose percentiles meet falls back to its whole range.
 */
import type { StoredVolume } from './stored-result.ts';
import { blockOffset, stepLayout } from './volume-axes.ts';

/** Samples looked at per channel. */
const SAMPLES = 65_536;
const LOW = 0.001;
const HIGH = 0.999;

/** The [low, high] percentile window of channel `c`, or null when it has no finite sample. */
function windowOf(volume: StoredVolume, c: number): [number, number] | null {
  const layout = stepLayout(volume);
  const total = layout.steps * layout.voxels;
  const n = Math.min(total, SAMPLES);
  const picked = new Float64Array(n);
  let kept = 0;
  for (let k = 0; k < n; k++) {
    const j = Math.floor((k * total) / n);
    const v = volume.data[blockOffset(layout, Math.floor(j / layout.voxels), c) + (j % layout.voxels)]!;
    if (Number.isFinite(v)) picked[kept++] = v;
  }
  if (kept === 0) return null;
  const sorted = picked.subarray(0, kept).sort();
  const lo = sorted[Math.floor(LOW * (kept - 1))]!;
  const hi = sorted[Math.ceil(HIGH * (kept - 1))]!;
  if (lo < hi) return [lo, hi];
  const range = volume.channelRanges?.[c];
  return range && range[0] < range[1] ? [range[0], range[1]] : [lo, lo + 1];
}

/** Each channel's window: the one its result names, else the percentile window of its samples. */
export function channelWindows(volume: StoredVolume): [number, number][] {
  const { channels } = stepLayout(volume);
  return Array.from({ length: channels }, (_, c) => volume.channels?.[c]?.window ?? windowOf(volume, c) ?? [0, 1]);
}
