/**
 * @module render-image
 * Image thumbnails: the image area-averaged down to fit the square and centred on the
 * backdrop, its alpha (if any) blended over it.
 */
import type { ImageResult } from 'vitrine';
import { createBackdrop, type Canvas } from './canvas.ts';

/** Renders `image` to a `size` × `size` canvas. */
export function renderImage(image: ImageResult, size: number): Canvas {
  const { width, height, channels, data } = image;
  const unit = data instanceof Uint16Array ? 65535 : data instanceof Float32Array ? 1 : 255;
  const scale = Math.max(width, height) / size;
  const outW = Math.round(width / scale), outH = Math.round(height / scale);
  const offX = Math.floor((size - outW) / 2), offY = Math.floor((size - outH) / 2);
  const canvas = createBackdrop(size, size);
  for (let oy = 0; oy < outH; oy++) {
    for (let ox = 0; ox < outW; ox++) {
      const sx0 = Math.floor(ox * scale), sx1 = Math.max(sx0 + 1, Math.floor((ox + 1) * scale));
      const sy0 = Math.floor(oy * scale), sy1 = Math.max(sy0 + 1, Math.floor((oy + 1) * scale));
      const sum = [0, 0, 0, 0];
      let n = 0;
      for (let sy = sy0; sy < Math.min(sy1, height); sy++) {
        for (let sx = sx0; sx < Math.min(sx1, width); sx++) {
          const i = (sy * width + sx) * channels;
          const grey = channels <= 2;
          sum[0]! += data[i]! / unit;
          sum[1]! += data[grey ? i : i + 1]! / unit;
          sum[2]! += data[grey ? i : i + 2]! / unit;
          sum[3]! += channels === 2 || channels === 4 ? data[i + channels - 1]! / unit : 1;
          n++;
        }
      }
      if (n === 0) continue;
      const alpha = sum[3]! / n;
      const o = ((oy + offY) * size + ox + offX) * 3;
      for (let k = 0; k < 3; k++) canvas.rgb[o + k] = canvas.rgb[o + k]! * (1 - alpha) + (sum[k]! / n) * alpha;
    }
  }
  return canvas;
}
