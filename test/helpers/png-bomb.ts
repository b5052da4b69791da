/**
 * PNG files of zeros built in memory, however large they declare themselves, in about a
 * megabyte and a few milliseconds: a band of zero rows is deflated once with a full flush
 * (which makes it a byte-aligned piece no later byte refers back past) and repeated for every
 * band, so a 16384 × 16384 RGBA image costs no gigabyte to build. The zlib stream is sound
 * (its Adler-32 is that of all the zeros), so a decoder would inflate the whole image.
 */
import { deflateRawSync, constants } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Colour type by channel count: grey, grey + alpha, RGB, RGBA. */
const COLOUR_TYPES: Record<number, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };

/** A PNG of `width` × `height` zero pixels with `channels` samples of `bitDepth` bits. */
export function pngOfZeros(width: number, height: number, options: { channels?: 1 | 2 | 3 | 4; bitDepth?: 8 | 16 } = {}): Buffer {
  const channels = options.channels ?? 4;
  const bitDepth = options.bitDepth ?? 8;
  const rowBytes = 1 + width * channels * (bitDepth / 8);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(bitDepth, 8);
  ihdr.writeUInt8(COLOUR_TYPES[channels]!, 9);
  // Rows of a band: about 4 MiB of zeros, deflated once.
  const band = Math.max(1, Math.min(height, Math.floor((4 << 20) / rowBytes)));
  const full = deflateRawSync(Buffer.alloc(band * rowBytes), { finishFlush: constants.Z_FULL_FLUSH });
  const rest = height % band;
  const pieces = Array.from({ length: Math.floor(height / band) }, () => full);
  if (rest > 0) pieces.push(deflateRawSync(Buffer.alloc(rest * rowBytes), { finishFlush: constants.Z_FULL_FLUSH }));
  // The last, empty block is the final one; Adler-32 of n zeros is (n mod 65521) << 16 | 1.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((((height * rowBytes) % 65521) << 16) | 1) >>> 0, 0);
  const zlib = Buffer.concat([Buffer.from([0x78, 0x01]), ...pieces, deflateRawSync(Buffer.alloc(0)), adler]);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib), chunk('IEND', Buffer.alloc(0))]);
}
