/**
 * @module png-hsv
 * A decoded PNG's pixel as hue (degrees), saturation and value, for tests that tell what a page
 * or a picture drew by its colours rather than pixel by pixel.
 */
import type { PNG } from 'pngjs';

export interface Hsv {
  h: number;
  s: number;
  v: number;
}

/** Hue (degrees), saturation and value of the pixel at (x, y). */
export function hsvAt(png: PNG, x: number, y: number): Hsv {
  const i = (Math.round(y) * png.width + Math.round(x)) * 4;
  const [r, g, b] = [png.data[i]! / 255, png.data[i + 1]! / 255, png.data[i + 2]! / 255];
  const v = Math.max(r, g, b), d = v - Math.min(r, g, b);
  const h = d === 0 ? 0 : v === r ? 60 * (((g - b) / d + 6) % 6) : v === g ? 60 * ((b - r) / d + 2) : 60 * ((r - g) / d + 4);
  return { h, s: v === 0 ? 0 : d / v, v };
}
