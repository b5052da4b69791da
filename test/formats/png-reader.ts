/**
 * @module png-reader
 * An independent PNG reader for checking the host's writer: walks the chunks (each CRC-32
 * checked with a bitwise CRC of its own, not zlib's), reads IHDR, inflates the IDAT data and
 * undoes every row filter PNG defines (None, Sub, Up, Average, Paeth), so a test compares the
 * pixels a viewer would see with the pixels that went in, whatever filters the writer chose.
 */
import { inflateSync } from 'node:zlib';

export interface ReadPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** Chunk types in file order. */
  types: string[];
  /** The filter byte of each row. */
  filters: number[];
  /** The unfiltered samples, row-major, as stored (16-bit ones big-endian). */
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 4: 2, 2: 3, 6: 4 };

/** Bitwise CRC-32 (ISO 3309, as PNG uses it). */
export function bitwiseCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reads `bytes` as a PNG; throws on a bad signature, a bad CRC or an unknown filter. */
export function readPng(bytes: Buffer): ReadPng {
  if (!SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error('not a PNG signature');
  const types: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (bytes.readUInt32BE(at + 8 + length) !== bitwiseCrc32(bytes.subarray(at + 4, at + 8 + length))) throw new Error(`bad CRC in ${type}`);
    types.push(type);
    if (type === 'IHDR') ihdr = body;
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  if (!ihdr) throw new Error('no IHDR');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const bitDepth = ihdr[8]!;
  const colorType = ihdr[9]!;
  const bpp = CHANNELS[colorType]! * (bitDepth / 8);
  const stride = width * bpp;
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== height * (stride + 1)) throw new Error(`IDAT holds ${raw.length} bytes, expected ${height * (stride + 1)}`);
  const pixels = new Uint8Array(height * stride);
  const filters: number[] = [];
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    filters.push(filter);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? pixels[y * stride + x - bpp]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= bpp && y > 0 ? pixels[(y - 1) * stride + x - bpp]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`unknown filter ${filter} on row ${y}`);
      pixels[y * stride + x] = (raw[y * (stride + 1) + 1 + x]! + predictor) & 0xff;
    }
  }
  return { width, height, bitDepth, colorType, types, filters, pixels };
}
