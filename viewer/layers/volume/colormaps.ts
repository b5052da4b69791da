/**
 * @module colormaps
 * What the viewer adds to the shared colour maps (core/wire/colormaps.ts): a legend's CSS
 * gradient, and the value range a map is stretched over.
 */

import { valueRange } from '../../../core/client/index.ts';
import { colormapTable, type ScalarColormap } from '../../../core/wire/colormaps.ts';

export { colormapTable, SCALAR_COLORMAPS as COLORMAPS } from '../../../core/wire/colormaps.ts';
export type { ScalarColormap as ColormapName } from '../../../core/wire/colormaps.ts';

/** Finite min and max of `values` (0..1 when there is none). */
export function finiteRange(values: ArrayLike<number>): [number, number] {
  return valueRange(values) ?? [0, 1];
}

/** The CSS gradient of a map (for legends). */
export function colormapCss(name: ScalarColormap): string {
  const table = colormapTable(name);
  const stops: string[] = [];
  for (let i = 0; i <= 8; i++) {
    const k = Math.round((i / 8) * 255) * 3;
    stops.push(`rgb(${table[k]},${table[k + 1]},${table[k + 2]}) ${(i / 8) * 100}%`);
  }
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}
