/**
 * The host's one PNG writer writes files any reader decodes to exactly the pixels given: every
 * chunk's CRC is right, IHDR says what the pixels are, and the IDAT data, once inflated and
 * unfiltered (whatever filter each row got), is the input. Checked with a reader of the test's
 * own and with pngjs, for each colour type and both bit depths.
 */
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { encodePng, type RasterImage } from '../../core/formats/png/encode-png.ts';
import { bitwiseCrc32, readPng } from './png-reader.ts';

/** Deterministic noise with smooth parts, so rows favour different filters. */
function samples(length: number, seed: number): Uint8Array {
  let s = seed;
  return Uint8Array.from({ length }, (_, i) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return i % 7 < 3 ? (i * 3) & 0xff : s >>> 24;
  });
}

const IMAGES: Array<[string, RasterImage, number]> = [
  ['grey', { width: 9, height: 4, channels: 1, data: samples(9 * 4, 1) }, 0],
  ['grey + alpha', { width: 6, height: 5, channels: 2, data: samples(6 * 5 * 2, 2) }, 4],
  ['RGB', { width: 7, height: 5, channels: 3, data: samples(7 * 5 * 3, 3) }, 2],
  ['RGBA', { width: 5, height: 3, channels: 4, data: Uint8Array.from({ length: 5 * 3 * 4 }, (_, i) => (i * 37) & 255) }, 6],
  ['16-bit RGB', { width: 4, height: 6, channels: 3, bitDepth: 16, data: samples(4 * 6 * 3 * 2, 4) }, 2],
  ['one pixel', { width: 1, height: 1, channels: 4, data: new Uint8Array([255, 0, 0, 255]) }, 6],
];

describe('encodePng', () => {
  it('agrees with the standard CRC-32 the test reader checks chunks with', () => {
    expect(bitwiseCrc32(Buffer.from('IEND'))).toBe(0xae426082);
    expect(bitwiseCrc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it.each(IMAGES)('%s: chunks with good CRCs, IHDR, and pixels that decode to the input', (_, image, colorType) => {
    const png = readPng(encodePng(image));
    expect(png.types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([png.width, png.height, png.bitDepth, png.colorType]).toEqual([image.width, image.height, image.bitDepth ?? 8, colorType]);
    expect(png.filters.every((f) => f >= 0 && f <= 4)).toBe(true);
    expect(Buffer.from(png.pixels).equals(Buffer.from(image.data))).toBe(true);
  });

  it.each(IMAGES.filter(([, image]) => (image.bitDepth ?? 8) === 8))('%s: pngjs reads the same pixels', (_, image) => {
    const decoded = PNG.sync.read(encodePng(image), { skipRescale: true });
    expect([decoded.width, decoded.height]).toEqual([image.width, image.height]);
    // pngjs hands back RGBA; compare channel by channel as the colour type maps them.
    const rgba = Array.from({ length: image.width * image.height }, (_, p) => {
      const px = Array.from(image.data.subarray(p * image.channels, (p + 1) * image.channels));
      return image.channels === 1 ? [px[0], px[0], px[0], 255] : image.channels === 2 ? [px[0], px[0], px[0], px[1]] : image.channels === 3 ? [...px, 255] : px;
    }).flat();
    expect(Array.from(decoded.data)).toEqual(rgba);
  });

  it('uses the filters to make a smooth image smaller than unfiltered rows would', () => {
    const size = 128;
    const data = Uint8Array.from({ length: size * size * 3 }, (_, i) => {
      const p = Math.floor(i / 3);
      return ((p % size) + Math.floor(p / size) * 2 + (i % 3) * 40) & 0xff;
    });
    const png = encodePng({ width: size, height: size, channels: 3, data });
    const decoded = readPng(png);
    expect(Buffer.from(decoded.pixels).equals(Buffer.from(data))).toBe(true);
    expect(decoded.filters.some((f) => f !== 0)).toBe(true);
    const unfiltered = Buffer.concat(
      Array.from({ length: size }, (_, y) => Buffer.concat([Buffer.from([0]), data.subarray(y * size * 3, (y + 1) * size * 3)])),
    );
    expect(png.length).toBeLessThan(deflateSync(unfiltered, { level: 9 }).length);
  });

  it('rejects a data length that does not match the size, and a size that is not a positive integer', () => {
    expect(() => encodePng({ width: 2, height: 2, channels: 3, data: new Uint8Array(11) })).toThrow(/PNG data has 11 bytes, expected 12/);
    expect(() => encodePng({ width: 0, height: 2, channels: 3, data: new Uint8Array(0) })).toThrow(RangeError);
    expect(() => encodePng({ width: 1.5, height: 2, channels: 3, data: new Uint8Array(9) })).toThrow(RangeError);
  });
});

describe('the test reader', () => {
  it('refuses a file whose chunk CRC is wrong, so a writer with a broken CRC fails the tests above', () => {
    const png = Buffer.from(encodePng(IMAGES[2]![1]));
    const at = png.length - 13; // the last byte of IDAT's CRC
    png[at] = png[at]! ^ 1;
    expect(() => readPng(png)).toThrow(/bad CRC in IDAT/);
  });
});
