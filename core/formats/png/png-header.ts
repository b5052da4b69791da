/**
 * @module png-header
 * The IHDR chunk of a PNG file: its size, bit depth and colour type, read from the first 29
 * bytes without inflating anything. What the image would take once decoded is worked out
 * from these alone, so a small file that inflates to gigabytes (a decompression bomb) is
 * known for what it is before a byte of it is inflated.
 */
import { fail } from '../format-error.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Samples per pixel by colour type (a palette image has one index per pixel). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** Samples per pixel as the file stores them. */
  channels: number;
}

export function readPngHeader(bytes: Buffer): PngHeader {
  if (bytes.length < 29 || !bytes.subarray(0, 8).equals(SIGNATURE)) fail('not a PNG file (bad signature)');
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') fail('the PNG does not start with its IHDR header chunk');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24]!;
  const channels = CHANNELS[bytes[25]!];
  if (width === 0 || height === 0) fail(`the header declares an empty ${width}×${height} image`);
  if (channels === undefined) fail(`the header declares an unknown colour type ${bytes[25]}`);
  if (![1, 2, 4, 8, 16].includes(bitDepth)) fail(`the header declares an unknown bit depth ${bitDepth}`);
  return { width, height, bitDepth, channels };
}

/**
 * Bytes the image takes decoded: the larger of its samples as the file stores them (pixels ×
 * channels × bytes per sample: what inflating produces) and the 8-bit RGBA the host keeps.
 */
export function pngDecodedBytes(header: PngHeader): { bytes: number; what: string } {
  const { width, height, bitDepth, channels } = header;
  const pixels = width * height;
  const sampleBytes = Math.max(1, bitDepth / 8);
  const stored = pixels * channels * sampleBytes;
  const kept = pixels * 4;
  if (stored < kept) return { bytes: kept, what: `${width}×${height} pixels as 8-bit RGBA` };
  const what = `${width}×${height} pixels × ${channels} channel${channels === 1 ? '' : 's'} × ${sampleBytes} byte${sampleBytes === 1 ? '' : 's'}`;
  return { bytes: stored, what };
}
