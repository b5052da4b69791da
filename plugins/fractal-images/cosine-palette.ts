/**
 * @module cosine-palette
 * Smooth cyclic palettes of the form a + b·cos(2π(c·t + d)) (after Inigo Quilez), used to
 * colour escape-time fractals by their smoothed iteration count.
 */

/** Palette names offered to users. */
export type PaletteName = 'ocean' | 'fire' | 'electric';

type Coefficients = readonly [readonly number[], readonly number[], readonly number[], readonly number[]];

const PALETTES: Record<PaletteName, Coefficients> = {
  ocean: [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [1, 1, 1], [0.0, 0.1, 0.2]],
  fire: [[0.5, 0.3, 0.15], [0.5, 0.35, 0.2], [1, 1, 1], [0.0, 0.15, 0.25]],
  electric: [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [1, 1, 0.5], [0.8, 0.9, 0.3]],
};

/**
 * Writes the colour at `t` (any real; the palette repeats every 1), scaled by `intensity`
 * (0..1), as bytes at `out[offset..offset+2]`.
 */
export function paletteColour(name: PaletteName, t: number, intensity: number, out: Uint8Array, offset: number): void {
  const [a, b, c, d] = PALETTES[name];
  for (let k = 0; k < 3; k++) {
    const v = a[k]! + b[k]! * Math.cos(2 * Math.PI * (c[k]! * t + d[k]!));
    out[offset + k] = Math.round(Math.min(1, Math.max(0, v)) * intensity * 255);
  }
}
