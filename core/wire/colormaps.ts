/**
 * @module colormaps
 * The colour maps, one home for the host and every client: the names a host accepts for a
 * room's view and a layer (a name not listed is a 400 that lists them), each continuous map's
 * control points (close to the matplotlib originals), and how a value is sampled from them. The
 * page, the VR panel, the room's picture and the Neuroglancer state all draw from these, so a
 * figure made anywhere shows the colours the room shows.
 */

/** Continuous maps for scalar data, and `glasbey`, the categorical map of labels. */
export const COLORMAP_NAMES = ['gray', 'viridis', 'magma', 'inferno', 'plasma', 'bone', 'hot', 'ice', 'glasbey'] as const;

/** Any name a host accepts. */
export type ColormapName = (typeof COLORMAP_NAMES)[number];

/** A continuous map: one drawn from control points (every map but the categorical `glasbey`). */
export type ScalarColormap = Exclude<ColormapName, 'glasbey'>;

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

/** Each continuous map's control points as bytes. */
export const COLORMAP_STOPS: Record<ScalarColormap, [number, number, number][]> = {
  viridis: [
    [68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142],
    [31, 158, 137], [53, 183, 121], [110, 206, 88], [181, 222, 43], [253, 231, 37],
  ],
  magma: [
    [0, 0, 4], [28, 16, 68], [79, 18, 123], [129, 37, 129], [181, 54, 122],
    [229, 80, 100], [251, 135, 97], [254, 194, 135], [252, 253, 191],
  ],
  inferno: [
    [0, 0, 4], [31, 12, 72], [85, 15, 109], [136, 34, 106], [186, 54, 85],
    [227, 89, 51], [249, 140, 10], [249, 201, 50], [252, 255, 164],
  ],
  plasma: [[13, 8, 135], [84, 2, 163], [139, 10, 165], [185, 50, 137], [219, 92, 104], [244, 136, 73], [254, 188, 43], [240, 249, 33]],
  gray: [[0, 0, 0], [255, 255, 255]],
  bone: [[0, 0, 0], [84, 84, 116], [167, 199, 199], [255, 255, 255]],
  hot: [[10, 0, 0], [255, 0, 0], [255, 255, 0], [255, 255, 255]],
  ice: [[4, 6, 19], [35, 52, 110], [55, 110, 170], [96, 172, 204], [190, 231, 236], [255, 255, 255]],
};

/** Every continuous map's name, for pickers. */
export const SCALAR_COLORMAPS = Object.keys(COLORMAP_STOPS) as ScalarColormap[];

/** True for a continuous map (every listed name but `glasbey`, which labels use). */
export function isScalarColormap(name: unknown): name is ScalarColormap {
  return typeof name === 'string' && Object.hasOwn(COLORMAP_STOPS, name);
}

/** The colour of `t` (clamped to 0..1) in the map, each channel 0..1, written to `out`. */
export function sampleColormap(name: ScalarColormap, t: number, out: Float64Array): void {
  const stops = COLORMAP_STOPS[name];
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(x));
  const f = x - k;
  const a = stops[k]!;
  const b = stops[k + 1]!;
  for (let c = 0; c < 3; c++) out[c] = (a[c]! + (b[c]! - a[c]!) * f) / 255;
}

/** A 256-entry RGB lookup table (bytes). */
export function colormapTable(name: ScalarColormap): Uint8Array {
  const table = new Uint8Array(256 * 3);
  const colour = new Float64Array(3);
  for (let i = 0; i < 256; i++) {
    sampleColormap(name, i / 255, colour);
    for (let c = 0; c < 3; c++) table[i * 3 + c] = Math.round(colour[c]! * 255);
  }
  return table;
}
