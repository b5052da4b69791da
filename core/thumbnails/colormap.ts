/**
 * @module colormap
 * Colour maps sampled from a few control points (close to matplotlib's) for volumes and
 * scalar point clouds: the continuous maps the host lists, by the same names.
 */

import { COLORMAP_STOPS } from '../viewer/app/stage/colormaps.ts';

type Stops = readonly (readonly [number, number, number])[];

const INFERNO: Stops = [
  [0.001, 0.000, 0.014], [0.122, 0.047, 0.283], [0.330, 0.059, 0.427], [0.533, 0.134, 0.416],
  [0.729, 0.212, 0.333], [0.894, 0.336, 0.209], [0.975, 0.552, 0.039], [0.977, 0.791, 0.178],
  [0.988, 0.998, 0.645],
];

const VIRIDIS: Stops = [
  [0.267, 0.005, 0.329], [0.283, 0.141, 0.458], [0.254, 0.265, 0.530], [0.207, 0.372, 0.553],
  [0.164, 0.471, 0.558], [0.128, 0.567, 0.551], [0.135, 0.659, 0.518], [0.267, 0.749, 0.441],
  [0.478, 0.821, 0.318], [0.741, 0.873, 0.150], [0.993, 0.906, 0.144],
];

const BONE: Stops = [[0, 0, 0], [0.32, 0.32, 0.44], [0.65, 0.78, 0.78], [1, 1, 1]];

/** Stops given as bytes (as matplotlib's tables are usually quoted), scaled to 0..1. */
const bytes = (stops: [number, number, number][]): Stops => stops.map(([r, g, b]) => [r / 255, g / 255, b / 255] as const);

// The maps the viewer added later take its own control points, so a room's picture and its page agree.
const MAGMA = bytes(COLORMAP_STOPS.magma);
const PLASMA = bytes(COLORMAP_STOPS.plasma);
const HOT = bytes(COLORMAP_STOPS.hot);
const ICE = bytes(COLORMAP_STOPS.ice);
const GRAY: Stops = [[0, 0, 0], [1, 1, 1]];

/** The available colour maps: every continuous map the host lists (rooms/colormaps.ts). */
export const COLORMAPS = { inferno: INFERNO, viridis: VIRIDIS, bone: BONE, magma: MAGMA, plasma: PLASMA, hot: HOT, ice: ICE, gray: GRAY } as const;

/** A colour map name. */
export type ColormapName = keyof typeof COLORMAPS;

/** Colour of `t` (clamped to 0..1) in the named map, written to `out`. */
export function sampleColormap(name: ColormapName, t: number, out: Float64Array): void {
  const stops = COLORMAPS[name];
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i]!, b = stops[i + 1]!;
  out[0] = a[0] + (b[0] - a[0]) * f;
  out[1] = a[1] + (b[1] - a[1]) * f;
  out[2] = a[2] + (b[2] - a[2]) * f;
}
