/**
 * @module label-colors
 * The colours of a segmentation's ids: 0 (the background) is transparent; an id takes the
 * layer's own colour for it (`labels.colors`), else the result's (`label_colors`), else a
 * categorical colour worked out from the id alone (the client's `labelRgb`, as the host colours
 * label images and meshes: every page and headset gives label 7 the same colour, and
 * neighbouring ids stand apart). With `show: selected`, only the ids in `selected` are drawn.
 * The table is RGBA bytes, one entry per index (label-ids.ts).
 */
import { labelRgb, rgbOfHex } from '../../../core/wire/label-colors.ts';
import type { LayerLabels } from '../../../core/wire/scene-types.ts';
import type { LabelIds } from './label-ids.ts';

export type Rgb = [number, number, number];

/** `#rrggbb` as bytes, or null. */
export function parseHexColour(text: unknown): Rgb | null {
  return typeof text === 'string' && /^#[0-9a-f]{6}$/i.test(text) ? rgbOfHex(text) : null;
}

/** Where a segmentation's colours come from. */
export interface LabelSources {
  /** The result's colours by id (`label_colors`). */
  resultColors?: Record<string, string>;
  /** The layer's settings. */
  labels?: LayerLabels;
}

/** The colour id `id` is drawn in, or null when it is not drawn. */
export function labelColour(id: number, sources: LabelSources): Rgb | null {
  if (id === 0) return null;
  const labels = sources.labels;
  if (labels?.show === 'selected' && !(labels.selected ?? []).includes(id)) return null;
  return parseHexColour(labels?.colors?.[String(id)]) ?? parseHexColour(sources.resultColors?.[String(id)]) ?? labelRgb(id);
}

/** The RGBA table of every index of `ids` (alpha 0: not drawn). */
export function labelTable(ids: LabelIds, sources: LabelSources, table: Uint8Array = new Uint8Array(ids.size * 4)): Uint8Array {
  table.fill(0);
  for (const id of ids.present) {
    const index = ids.indexOf(id);
    const colour = index >= 0 ? labelColour(id, sources) : null;
    if (!colour) continue;
    table.set(colour, index * 4);
    table[index * 4 + 3] = 255;
  }
  return table;
}
