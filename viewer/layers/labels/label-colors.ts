/**
 * @module label-colors
 * The colour table of a segmentation's ids, from the colours every view shares: 0 (the
 * background) is transparent; an id takes the layer's own colour for it (`labels.colors`), else the result's (`label_colors`), else a
 * categorical colour worked out from the id alone: the one `labelColour` the host's pictures
 * and painted meshes use too, so every page, headset and picture gives label 7 the same colour
 * (neighbouring ids stand apart). With `show: selected`, only the ids in `selected` are drawn.
 * The table is RGBA bytes, one entry per index (label-ids.ts).
 */
import { labelColour, type LabelSources } from '../../../core/wire/label-colors.ts';
import type { LabelIds } from './label-ids.ts';

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
