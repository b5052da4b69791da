/**
 * @module encode-png
 * The host's one PNG writer: 8- or 16-bit grey, grey+alpha, RGB or RGBA, no interlace, on
 * node:zlib. Each row gets whichever of the five PNG filters leaves the smallest sum of
 * absolute differences (the usual heuristic: it makes the deflate input small and regular).
 * Image results downloaded as PNG, the placeholder and published-specimen thumbnails and
 * `vitrine thumbnails` all write through it.
 */
import { crc32, deflateSync } from 'node:zlib';

export interface RasterImage {
  width: number;
  height: number;
  /** 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
  channels: 1 | 2 | 3 | 4;
  /** 8 (default) or 16 bits per sample. */
  bitDepth?: 8 | 16;
  /** Row-major, channels last, `width * height * channels` samples; 16-bit ones big-endian. */
  data: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOR_TYPE = { 1: 0, 2: 4, 3: 2, 4: 6 } as const;

/** One PNG chunk: length, type, body and the CRC of type and body. */
export function pngChunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'ascii');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Filters each row with whichever of the five PNG filters gives the smallest absolute sum. */
function filterRows(image: RasterImage): Buffer {
  const { width, height, data } = image;
  const bpp = image.channels * ((image.bitDepth ?? 8) / 8);
  const stride = width * bpp;
  const out = Buffer.alloc(height * (stride + 1));
  const candidate = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    let bestScore = Infinity;
    for (let filter = 0; filter < 5; filter++) {
      let score = 0;
      for (let x = 0; x < stride; x++) {
        const raw = data[row + x]!;
        const left = x >= bpp ? data[row + x - bpp]! : 0;
        const up = y > 0 ? data[row - stride + x]! : 0;
        const upLeft = y > 0 && x >= bpp ? data[row - stride + x - bpp]! : 0;
        const predictor = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : paeth(left, up, upLeft);
        const v = (raw - predictor) & 0xff;
        candidate[x] = v;
        score += v < 128 ? v : 256 - v;
      }
      if (score < bestScore) {
        bestScore = score;
        out[y * (stride + 1)] = filter;
        candidate.copy(out, y * (stride + 1) + 1);
      }
    }
  }
  return out;
}

/**
 * Encodes `image` as a PNG file.
 * @example encodePng({ width: 1, height: 1, channels: 4, data: new Uint8Array([255, 0, 0, 255]) })
 */
export function encodePng(image: RasterImage): Buffer {
  const { width, height, channels, data } = image;
  const bitDepth = image.bitDepth ?? 8;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`invalid PNG size ${width}x${height}`);
  }
  const expected = width * height * channels * (bitDepth / 8);
  if (data.length !== expected) {
    throw new RangeError(`PNG data has ${data.length} bytes, expected ${expected}`);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = COLOR_TYPE[channels];
  // bytes 10-12: deflate compression, adaptive filtering, no interlace (all zero)
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(filterRows(image), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
