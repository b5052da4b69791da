/**
 * @module colormaps
 * The colour map names a host accepts for a room's view and a layer (and that its viewers and
 * its room pictures draw): one list, so nothing names a map some client cannot show. A name
 * not listed is a 400 that lists them.
 */

/** Continuous maps for scalar data, and `glasbey`, the categorical map of labels. */
export const COLORMAP_NAMES = ['gray', 'viridis', 'magma', 'inferno', 'plasma', 'bone', 'hot', 'ice', 'glasbey'] as const;

export type ColormapName = (typeof COLORMAP_NAMES)[number];

/** The maps that colour categories (label ids), not a scale of values. */
const CATEGORICAL: readonly ColormapName[] = ['glasbey'];

export function isColormapName(name: unknown): name is ColormapName {
  return typeof name === 'string' && (COLORMAP_NAMES as readonly string[]).includes(name);
}

/** One map as `GET /api/colormaps` lists it. */
export interface ColormapListing {
  name: ColormapName;
  /** True for a map of categories (labels), false for a continuous scale. */
  categorical: boolean;
}

/** Every map, in the list's order. */
export function listColormaps(): ColormapListing[] {
  return COLORMAP_NAMES.map((name) => ({ name, categorical: CATEGORICAL.includes(name) }));
}
