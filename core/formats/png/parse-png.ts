/**
 * @module parse-png
 * PNG images via pngjs, as 8-bit RGBA (pngjs expands palettes, grey and 16-bit samples).
 * The declared size is read from the header first (png-header.ts): an image whose pixels
 * would not fit the limit is refused before pngjs inflates them. CRC and truncation errors
 * come from pngjs.
 */
import { PNG } from 'pngjs';
import type { TaggedResult } from '../../sdk/result-types.ts';
import { fail } from '../format-error.ts';
import { pngDecodedBytes, readPngHeader } from './png-header.ts';

/** Decoded bytes pngjs can hold at all, whatever the host's limit: 16384 × 16384 RGBA. */
const MAX_PIXEL_BYTES = 1024 * 1024 * 1024;

export function parsePng(bytes: Buffer): TaggedResult {
  const decoded = pngDecodedBytes(readPngHeader(bytes));
  if (decoded.bytes > MAX_PIXEL_BYTES) fail(`the header declares ${decoded.what}, over the ${MAX_PIXEL_BYTES}-byte limit once decoded`);
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch (error) {
    fail((error as Error).message);
  }
  const data = new Uint8Array(new SharedArrayBuffer(png.data.length));
  data.set(png.data);
  return { type: 'image', width: png.width, height: png.height, channels: 4, dtype: 'uint8', data };
}
