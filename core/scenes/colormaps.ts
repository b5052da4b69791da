/**
 * @module colormaps
 * The colour map names a host accepts for a layer (and that its viewers draw): one list, so a
 * scene never names a map some viewer cannot show. A name not listed is a 400 that lists them.
 */

/** Continuous maps for scalar data, and `glasbey`, the categorical map of labels. */
export const COLORMAP_NAMES = ['gray', 'viridis', 'magma', 'inferno', 'plasma', 'bone', 'hot', 'ice', 'glasbey'] as const;

export type ColormapName = (typeof COLORMAP_NAMES)[number];

export function isColormapName(name: unknown): name is ColormapName {
  return typeof name === 'string' && (COLORMAP_NAMES as readonly string[]).includes(name);
}
