/**
 * @module format-value
 * A number as the page and the room's picture write it: four significant digits, exponent
 * form past 1e5 or under 1e-3.
 */

/** `12.35`, `0.001234`, `1.23e+5`. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e5 || abs < 1e-3)) return value.toExponential(2);
  return String(Number(value.toPrecision(4)));
}
