/**
 * @module label-colors
 * The categorical colour of a label id, the same wherever a segmentation is drawn: the viewer,
 * the OME-Zarr label image's `colors`, a `segment=all` mesh's vertex colours, thumbnails. Ids
 * walk round the hue circle by the golden ratio (neighbouring ids far apart in hue) with
 * saturation and brightness varied a little, so thousands of ids stay told apart; a colour the
 * result gives (`label_colors`) or a display overrides wins. Id 0 is the background and has no
 * colour. Browser-safe.
 */
import type { LayerLabels } from './scene-types.ts';

/** RGB bytes of the categorical colour of `id` (> 0): hues a golden angle apart, saturation and brightness varied a little. */
export function labelRgb(id: number): [number, number, number] {
  const hue = (id * 0.618033988749895) % 1;
  const saturation = 0.62 + 0.3 * ((id * 0.381966) % 1);
  const value = 0.88 + 0.12 * ((id * 0.7548776) % 1);
  const k = (n: number): number => (n + hue * 6) % 6;
  const f = (n: number): number => value - value * saturation * Math.max(0, Math.min(k(n), 4 - k(n), 1));
  return [Math.round(f(5) * 255), Math.round(f(3) * 255), Math.round(f(1) * 255)];
}

/** `#rrggbb` as bytes, or null when `text` is not one. */
export function parseHexColour(text: unknown): [number, number, number] | null {
  return typeof text === 'string' && /^#[0-9a-f]{6}$/i.test(text) ? rgbOfHex(text) : null;
}

/** Where a segmentation's colours come from. */
export interface LabelSources {
  /** The result's colours by id (`label_colors`). */
  resultColors?: Record<string, string>;
  /** The layer's settings: its own colours by id, and which ids it shows. */
  labels?: LayerLabels;
}

/**
 * The colour id `id` is drawn in wherever a segment is drawn (the page's slices and surfaces,
 * the room's picture, a painted `segment=all` mesh), or null when it is not drawn: 0 is the
 * background; with `show: selected` only the selected ids are drawn; else the layer's own colour
 * for it, the result's, or the categorical one.
 */
export function labelColour(id: number, sources: LabelSources): [number, number, number] | null {
  if (id === 0) return null;
  const labels = sources.labels;
  if (labels?.show === 'selected' && !(labels.selected ?? []).includes(id)) return null;
  return parseHexColour(labels?.colors?.[String(id)]) ?? parseHexColour(sources.resultColors?.[String(id)]) ?? labelRgb(id);
}

/** `#rrggbb` of `id`: `given[id]` when set, else its categorical colour. */
export function labelColor(id: number, given?: Record<string, string>): string {
  return given?.[String(id)] || hexOfRgb(labelRgb(id));
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
