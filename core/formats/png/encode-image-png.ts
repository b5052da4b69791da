/**
 * @module encode-image-png
 * An image result as PNG: uint8 images as 8-bit PNG, uint16 as 16-bit PNG (both lossless),
 * float32 as 16-bit PNG over the image's own finite range (min to 0, max to 65535), since
 * PNG holds no floats.
 */
import { encodePng } from './encode-png.ts';
import { valueRange } from '../../envelope/value-range.ts';
import type { ImageResult } from '../../sdk/result-types.ts';

/** 16-bit samples, big-endian as PNG stores them; floats mapped over their range. */
function sixteenBit(data: Uint16Array | Float32Array): Uint8Array {
  const out = new Uint8Array(data.length * 2);
  const [min, max] = data instanceof Float32Array ? (valueRange(data) ?? [0, 0]) : [0, 65535];
  const scale = 65535 / (max - min || 1);
  for (let i = 0; i < data.length; i++) {
    const raw = data[i]!;
    const v = data instanceof Float32Array ? (Number.isFinite(raw) ? Math.max(0, Math.min(65535, Math.round((raw - min) * scale))) : 0) : raw;
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  }
  return out;
}

/** The PNG bytes of `image`. */
export function encodeImagePng(image: ImageResult): Uint8Array {
  const { width, height, channels, data } = image;
  const raster =
    data instanceof Uint8Array || data instanceof Uint8ClampedArray
      ? { width, height, channels, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }
      : { width, height, channels, bitDepth: 16 as const, data: sixteenBit(data) };
  const png = encodePng(raster);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
