/**
 * @module round-length
 * The length a scale bar shows: a round number (1, 2 or 5 times a power of ten) in the
 * result's physical unit, the longest that still fits in the room the bar has, so the bar
 * stays between 40% and 100% of that room as the view zooms. Its label says the unit the
 * result states, or "units" when it states none (the numbers are still physical: the
 * result's own coordinates). Shared by the page's bar, the one drawn in VR and the room's picture.
 */

/** A scale bar's longest length on the page, CSS pixels (a picture's bar keeps to it too). */
export const SCALE_BAR_MAX_PX = 150;

/** The mantissas of round lengths, longest first. */
const MANTISSAS = [5, 2, 1] as const;

/** A round length and its mantissa and power of ten (`mantissa`e`exponent`). */
export interface RoundLength {
  value: number;
  mantissa: 1 | 2 | 5;
  exponent: number;
}

/**
 * The longest round length (1, 2 or 5 × 10^n) at most `limit`; null when `limit` is not a
 * positive finite number.
 */
export function roundLength(limit: number): RoundLength | null {
  if (!(limit > 0) || !Number.isFinite(limit)) return null;
  let exponent = Math.floor(Math.log10(limit));
  // log10 of an exact power of ten can land a hair below it (log10(1000) = 2.9999999999999996).
  if (Number(`1e${exponent + 1}`) <= limit) exponent += 1;
  for (const mantissa of MANTISSAS) {
    // Built from its decimal spelling, so 5e-7 is exactly the double nearest 0.0000005.
    const value = Number(`${mantissa}e${exponent}`);
    if (value <= limit) return { value, mantissa, exponent };
  }
  // log10 rounded up to a power of ten just above `limit` (999.9999999999999 → 3): 5 below it.
  return { value: Number(`5e${exponent - 1}`), mantissa: 5, exponent: exponent - 1 };
}

/** A scale bar: its round length in physical units and how long it is drawn, in pixels. */
export interface ScaleBarLength extends RoundLength {
  pixels: number;
}

/**
 * The bar for a view where one pixel spans `unitsPerPixel` physical units: the longest round
 * length drawn at most `maxPixels` long (so at least 40% of it: round lengths are at most 2.5
 * apart). Null when the scale is not a positive finite number.
 */
export function scaleBarLength(unitsPerPixel: number, maxPixels: number): ScaleBarLength | null {
  if (!(unitsPerPixel > 0) || !Number.isFinite(unitsPerPixel)) return null;
  const round = roundLength(unitsPerPixel * maxPixels);
  return round && { ...round, pixels: round.value / unitsPerPixel };
}

/** The unit a label says when a result states none. */
export const NO_UNIT = 'units';

/** A round length's label: `10 mm`, `500 um`, `0.2 units`, `5e-9 m` (past plain decimals). */
export function formatLength(length: RoundLength, unit: string | null): string {
  const { value, mantissa, exponent } = length;
  const number = exponent >= -6 && exponent < 21 ? String(value) : `${mantissa}e${exponent}`;
  return `${number} ${unit || NO_UNIT}`;
}
