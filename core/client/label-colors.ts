/**
 * @module label-colors
 * The categorical colour of a label id, the same wherever a segmentation is drawn: the viewer,
 * the OME-Zarr label image's `colors`, a `segment=all` mesh's vertex colours. Ids walk round
 * the hue circle by the golden ratio (neighbouring ids far apart in hue) with three steps of
 * saturation and brightness, so thousands of ids stay told apart; a colour the result gives
 * (`label_colors`) or a display overrides wins. Id 0 is the background and has no colour.
 * Browser-safe.
 */

const GOLDEN = 0.618033988749895;
const SATURATION = [0.72, 0.55, 0.85];
const VALUE = [0.95, 0.8, 0.68];

/** RGB bytes of the categorical colour of `id` (> 0). */
export function labelRgb(id: number): [number, number, number] {
  const hue = (((id * GOLDEN) % 1) + 1) % 1;
  const step = Math.floor(id / 7) % 3;
  const s = SATURATION[step]!;
  const v = VALUE[(id + step) % 3]!;
  const h = hue * 6;
  const i = Math.floor(h);
  const f = h - i;
  const p = v * (1 - s);
  const q = v * (1 - s * f);
  const t = v * (1 - s * (1 - f));
  const rgb = [[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]][i % 6]!;
  return rgb.map((c) => Math.round(c * 255)) as [number, number, number];
}

/** `#rrggbb` of `id`: `given[id]` when set, else its categorical colour. */
export function labelColor(id: number, given?: Record<string, string>): string {
  const own = given?.[String(id)];
  if (own) return own;
  return `#${labelRgb(id).map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** RGB bytes of a `#rrggbb` colour. */
export function rgbOfHex(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
