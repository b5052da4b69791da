/**
 * @module window-level
 * The default display window of a volume (or any scalar field), read from its histogram. A
 * scan is mostly background (air around a head, empty space around a density): when the
 * histogram's tallest peak sits in the lowest quarter of the value range, everything up to
 * where that peak dies away is background, made see-through (the floor), so it does not fog
 * the ray marcher or hide one slice behind another. The window is then read from the body
 * alone (the samples past the background): from its 1st to its 90th percentile. Counting the
 * background would start the window in the air and, with a thin bright shell such as a
 * skull at the top, leave the inside a sliver of the colour map, one flat colour; a shell
 * is a small share of the body, so it takes the map's last colour and the inside spans the
 * map. Without a background the window is the 1st to 99th percentile of all samples, so a
 * few outliers do not squeeze the rest into a few colours. Pure (no DOM, no three.js): the page
 * and the room's picture open a volume with the same window.
 */

/** Bins of the histogram the defaults are read from. */
const BINS = 1024;

/** A display window in data units: values at or below `low` take the map's first colour, at or above `high` its last. */
export interface DisplayWindow {
  low: number;
  high: number;
  /** Values under this (data units) are background: see-through. */
  floor: number;
}

/** A histogram of `data` over `[min, max]` (non-finite values skipped). */
export function histogramOf(data: ArrayLike<number>, min: number, max: number, bins = BINS): Uint32Array {
  const counts = new Uint32Array(bins);
  const scale = bins / (max - min || 1);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (!Number.isFinite(v)) continue;
    const k = Math.floor((v - min) * scale);
    counts[k < 0 ? 0 : k >= bins ? bins - 1 : k]!++;
  }
  return counts;
}

/** The bin below which `fraction` of the samples counted from bin `from` on lie. */
export function percentileBin(counts: Uint32Array, fraction: number, from = 0): number {
  let total = 0;
  for (let k = from; k < counts.length; k++) total += counts[k]!;
  const want = fraction * total;
  let seen = 0;
  for (let k = from; k < counts.length; k++) {
    seen += counts[k]!;
    if (seen >= want && seen > 0) return k;
  }
  return counts.length - 1;
}

/** The first bin past the tallest peak where the counts have died away (under 1% of its height). */
function backgroundEnd(counts: Uint32Array, min: number, max: number): number | null {
  let peak = 0;
  for (let k = 1; k < counts.length; k++) if (counts[k]! > counts[peak]!) peak = k;
  if (peak >= counts.length / 4) return null;
  // Integer samples leave most fine bins empty: look a little ahead (a 64th of the range, or one unit).
  const ahead = Math.ceil(Math.max(counts.length / 64, counts.length / (max - min)));
  const tallest = (from: number): number => {
    let m = 0;
    for (let j = from; j < Math.min(counts.length, from + ahead); j++) m = Math.max(m, counts[j]!);
    return m;
  };
  let k = peak;
  while (k < counts.length - 1 && tallest(k) > counts[peak]! / 100) k++;
  // Only a background when something substantial lies beyond it.
  let rest = 0;
  let all = 0;
  for (let j = 0; j < counts.length; j++) {
    all += counts[j]!;
    if (j >= k) rest += counts[j]!;
  }
  return rest >= all / 100 ? k : null;
}

/** Where the window ends, as a share of the samples it is read from: of all of them, or of the body past a background. */
const TOP_OF_ALL = 0.99;
const TOP_OF_BODY = 0.9;

/** The window a volume opens with (see the module comment); `[min, max]` is its finite value range. */
export function defaultWindow(data: ArrayLike<number>, min: number, max: number): DisplayWindow {
  if (!(max > min)) return { low: min, high: max, floor: min };
  const counts = histogramOf(data, min, max);
  const width = (max - min) / counts.length;
  const end = backgroundEnd(counts, min, max);
  const from = end ?? 0;
  const low = min + percentileBin(counts, 0.01, from) * width;
  const high = min + (percentileBin(counts, end === null ? TOP_OF_ALL : TOP_OF_BODY, from) + 1) * width;
  const floor = end === null ? min : min + end * width;
  return high > low ? { low, high, floor } : { low: min, high: max, floor };
}
