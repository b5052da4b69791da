/**
 * @module label-colors
 * The categorical colour of a label id, the same wherever a segmentation is drawn: the viewer,
 * the OME-Zarr label image's `colors`, a `segment=all` mesh's vertex colours, thumbnails. Ids
 * walk round the hue circle by the golden ratio (neighbouring ids far apart in hue) with
 * saturation and brightness varied a little, so thousands of ids stay told apart; a colour the
 * result gives (`label_colors`) or a display overrides wins. Id 0 is the background and has no
 * colour. Browser-safe.
 */

/** RGB bytes of the categorical colour of `id` (> 0): hues a golden angle apart, saturation and brightness varied a little. */
export function labelRgb(id: number): [number, number, number] {
  const hue = (id * 0.618033988749895) % 1;
  const saturation = 0.62 + 0.3 * ((id * 0.381966) % 1);
  const value = 0.88 + 0.12 * ((id * 0.7548776) % 1);
  const k = (n: number): number => (n + hue * 6) % 6;
  const f = (n: number): number => value - value * saturation * Math.max(0, Math.min(k(n), 4 - k(n), 1));
  return [Math.round(f(5) * 255), Math.round(f(3) * 255), Math.round(f(1) * 255)];
}

/** `#rrggbb` of `id`: `given[id]` when set, else its categorical colour. */
export function labelColor(id: number, given?: Record<string, string>): string {
  const own = given?.[String(id)];
  if (own) return own;
  return hexOfRgb(labelRgb(id));
}

/** RGB bytes as `#rrggbb`. */
export function hexOfRgb(rgb: readonly [number, number, number]): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** RGB bytes of a `#rrggbb` colour. */
export function rgbOfHex(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
