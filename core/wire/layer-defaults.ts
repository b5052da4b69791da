/**
 * @module layer-defaults
 * How a layer looks when neither it nor the room says otherwise, one home for the page and the
 * room's picture: a mesh's colour, the colour map of a volume and of a cloud's scalars, a
 * volume's view (its slices, not ray marched), the colour of a volume's box edges. A picture
 * made on the host then shows what a page opening the same room shows.
 */
import type { ScalarColormap } from './colormaps.ts';

/** A mesh's colour (sRGB `#rrggbb`) when its specimen, its segment or its layer names none. */
export const DEFAULT_MESH_COLOUR = '#5f9fd6';

/** The map a scalar volume, or a cloud's scalars, opens with. */
export const DEFAULT_COLORMAP: ScalarColormap = 'viridis';

/** How a volume is drawn until its layer or the room asks for the other view. */
export const DEFAULT_VOLUME_MODE = 'slices' as const;

/** The edges of a volume's box (sRGB `#rrggbb`), drawn in either view. */
export const VOLUME_BOX_COLOUR = '#4b5d75';

/** `#rrggbb` as 0..1 channels (sRGB, as written); null for anything else. */
export function hexRgb(value: unknown): [number, number, number] | null {
  if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value)) return null;
  const n = Number.parseInt(value.slice(1), 16);
  return [(n >> 16) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
