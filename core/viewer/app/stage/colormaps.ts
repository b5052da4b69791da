/**
 * @module colormaps
 * Colour maps for scalars (point clouds, volume slices), as a few control points interpolated
 * linearly: close enough to the matplotlib originals for a viewer. The names are the host's
 * (`GET /api/colormaps`), but for `glasbey`, the categorical one segmentations are drawn in (label-colors.ts).
 */

import { valueRange } from '../../../envelope/value-range.ts';

export type ColormapName = 'viridis' | 'magma' | 'inferno' | 'plasma' | 'gray' | 'bone' | 'hot' | 'ice';

/** Each map's control points as bytes; the host's room pictures draw from the same ones. */
export const COLORMAP_STOPS: Record<ColormapName, [number, number, number][]> = {
  viridis: [
    [68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142],
    [31, 158, 137], [53, 183, 121], [110, 206, 88], [181, 222, 43], [253, 231, 37],
  ],
  magma: [
    [0, 0, 4], [28, 16, 68], [79, 18, 123], [129, 37, 129], [181, 54, 122],
    [229, 80, 100], [251, 135, 97], [254, 194, 135], [252, 253, 191],
  ],
  inferno: [
    [0, 0, 4], [31, 12, 72], [85, 15, 109], [136, 34, 106], [186, 54, 85],
    [227, 89, 51], [249, 140, 10], [249, 201, 50], [252, 255, 164],
  ],
  plasma: [[13, 8, 135], [84, 2, 163], [139, 10, 165], [185, 50, 137], [219, 92, 104], [244, 136, 73], [254, 188, 43], [240, 249, 33]],
  gray: [[0, 0, 0], [255, 255, 255]],
  bone: [[0, 0, 0], [84, 84, 116], [167, 199, 199], [255, 255, 255]],
  hot: [[10, 0, 0], [255, 0, 0], [255, 255, 0], [255, 255, 255]],
  ice: [[4, 6, 19], [35, 52, 110], [55, 110, 170], [96, 172, 204], [190, 231, 236], [255, 255, 255]],
};

/** Every map's name, for pickers. */
export const COLORMAPS = Object.keys(COLORMAP_STOPS) as ColormapName[];

/** True for a map the viewer draws (the host lists these and `glasbey`, which labels use). */
export function isColormap(name: unknown): name is ColormapName {
  return typeof name === 'string' && Object.hasOwn(COLORMAP_STOPS, name);
}

/** A 256-entry RGB lookup table (bytes). */
export function colormapTable(name: ColormapName): Uint8Array {
  const stops = COLORMAP_STOPS[name];
  const table = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(Math.floor(t), stops.length - 2);
    const f = t - k;
    const a = stops[k]!;
    const b = stops[k + 1]!;
    for (let c = 0; c < 3; c++) table[i * 3 + c] = Math.round(a[c]! + (b[c]! - a[c]!) * f);
  }
  return table;
}

/** Finite min and max of `values` (0..1 when there is none). */
export function finiteRange(values: ArrayLike<number>): [number, number] {
  return valueRange(values) ?? [0, 1];
}

/** The CSS gradient of a map (for legends). */
export function colormapCss(name: ColormapName): string {
  const table = colormapTable(name);
  const stops: string[] = [];
  for (let i = 0; i <= 8; i++) {
    const k = Math.round((i / 8) * 255) * 3;
    stops.push(`rgb(${table[k]},${table[k + 1]},${table[k + 2]}) ${(i / 8) * 100}%`);
  }
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}
