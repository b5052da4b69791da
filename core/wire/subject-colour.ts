/**
 * @module subject-colour
 * The colour of a thumbnail's subject, which the page draws a specimen's mesh in when the
 * specimen declares none (so each looks like its own thumbnail rather than all sharing one
 * blue), and which the room's picture reads the same way: the hue of the saturated, lit
 * pixels at full brightness, weighted by saturation and lightness, from the thumbnail drawn
 * at SUBJECT_SIDE pixels square; the dark background and grey highlights count for nothing.
 */

/** The side, in pixels, the thumbnail is drawn at before its colour is read. */
export const SUBJECT_SIDE = 48;

/** Pixels this dark or this grey say nothing about the subject's colour. */
const MIN_VALUE = 0.25;
const MIN_SATURATION = 0.3;

/** The subject's colour (sRGB, each 0..1) in RGBA pixels (sRGB bytes), or null when they are all dark or grey. */
export function subjectRgb(pixels: ArrayLike<number>): [number, number, number] | null {
  let [red, green, blue, weight] = [0, 0, 0, 0];
  for (let i = 0; i < pixels.length; i += 4) {
    const r = pixels[i]! / 255;
    const g = pixels[i + 1]! / 255;
    const b = pixels[i + 2]! / 255;
    const max = Math.max(r, g, b);
    const saturation = max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
    if (max < MIN_VALUE || saturation < MIN_SATURATION) continue;
    // Lit, saturated pixels say most: shadows darken a colour, highlights bleach it.
    const w = saturation * max * max;
    red += (r / max) * w;
    green += (g / max) * w;
    blue += (b / max) * w;
    weight += w;
  }
  return weight === 0 ? null : [red / weight, green / weight, blue / weight];
}
