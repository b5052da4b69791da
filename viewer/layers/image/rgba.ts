/**
 * @module rgba
 * Image and slice samples to 8-bit RGBA texels: uint8 as is, other types scaled by their range.
 */
import type { ImageData2D } from '../../../core/wire/decoded-types.ts';
import { finiteRange } from '../volume/colormaps.ts';

/**
 * An image result as RGBA bytes, rows flipped bottom-up (texture rows start at the bottom;
 * image rows at the top).
 */
export function imageToRgba(image: ImageData2D): Uint8Array<ArrayBuffer> {
  const { width, height, channels, data } = image;
  const [min, max] = image.dtype === 'uint8' ? [0, 255] : finiteRange(data);
  const scale = 255 / (max - min || 1);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const src = y * width * channels;
    const dst = (height - 1 - y) * width * 4;
    for (let x = 0; x < width; x++) {
      const s = src + x * channels;
      const d = dst + x * 4;
      const v = (i: number): number => Math.max(0, Math.min(255, Math.round((data[s + i]! - min) * scale)));
      if (channels === 1 || channels === 2) {
        const g = v(0);
        out[d] = g;
        out[d + 1] = g;
        out[d + 2] = g;
        out[d + 3] = channels === 2 ? v(1) : 255;
      } else {
        out[d] = v(0);
        out[d + 1] = v(1);
        out[d + 2] = v(2);
        out[d + 3] = channels === 4 ? v(3) : 255;
      }
    }
  }
  return out;
}
