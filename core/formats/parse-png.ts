/**
 * @module parse-png
 * PNG images via pngjs, as 8-bit RGBA (pngjs expands palettes, grey and 16-bit samples).
 * The declared size is read from the header first: an image whose pixels would not fit the
 * limit is refused before pngjs allocates them. CRC and truncation errors come from pngjs.
 */
import { PNG } from 'pngjs';
import type { StoredResult } from '../results/stored-result.ts';
import { fail } from './format-error.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Decoded bytes an uploaded image may take: 16384 × 16384 RGBA. */
const MAX_PIXEL_BYTES = 1024 * 1024 * 1024;

export function parsePng(bytes: Buffer): StoredResult {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(SIGNATURE)) fail('not a PNG file (bad signature)');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width === 0 || height === 0) fail(`the header declares an empty ${width}×${height} image`);
  if (width * height * 4 > MAX_PIXEL_BYTES) fail(`the header declares ${width}×${height} pixels, over the ${MAX_PIXEL_BYTES}-byte limit once decoded`);
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
