/**
 * @module label-image
 * A segmentation's OME-Zarr store as OME-NGFF 0.4 describes a label image: beside its
 * `multiscales` (of integer levels whose ids were picked, never averaged) the root `.zattrs`
 * holds `image-label` with a colour for each id present (`colors`: `label-value` and `rgba`,
 * the result's `label_colors` or the categorical colour every view of vitrine uses) and its
 * `properties` (`label-value`, its `name` where the result names it, and its voxel count).
 * napari (napari-ome-zarr) opens such a store as a labels layer; Neuroglancer and zarr-python
 * read its levels as any image's. At most 10,000 ids are listed (readers colour the rest
 * themselves), so the document stays small however many cells a segmentation holds.
 */
import { labelRgb, rgbOfHex } from '../wire/label-colors.ts';
import type { LabelIndex } from '../labels/label-index.ts';
import { MAX_LABEL_ENTRIES } from '../results/label-fields.ts';
import type { StoredResult } from '../results/stored-result.ts';

type VolumeOfStore = StoredResult & { type: 'volume' };

/** How a labels store's levels were made, as `multiscales[0].type` and its description. */
export const LABEL_DOWNSAMPLING = {
  type: 'mode',
  description: 'each level halves every spatial axis longer than 1 by taking the most frequent non-zero label id of each block (ties to the smaller id)',
};

/** The `image-label` member of a segmentation's root `.zattrs`. */
export function imageLabel(volume: VolumeOfStore, index: LabelIndex): object {
  const count = Math.min(index.ids.length, MAX_LABEL_ENTRIES);
  const colors: object[] = [];
  const properties: object[] = [];
  for (let k = 0; k < count; k++) {
    const id = index.ids[k]!;
    const given = volume.label_colors?.[String(id)];
    colors.push({ 'label-value': id, rgba: [...(given ? rgbOfHex(given) : labelRgb(id)), 255] });
    const name = volume.label_names?.[String(id)];
    properties.push({ 'label-value': id, ...(name !== undefined ? { name } : {}), voxels: index.counts[k]! });
  }
  return { version: '0.4', colors, properties };
}
