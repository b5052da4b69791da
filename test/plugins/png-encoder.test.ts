/**
 * The thumbnail PNG encoder writes valid files: known CRC-32 values, a correct IHDR, and
 * pixels that inflate back to the input.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, encodePng } from '../../core/thumbnails/png-encoder.ts';

describe('png encoder', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082);
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips RGBA pixels through IHDR and IDAT', () => {
    const [width, height] = [5, 3];
    const pixels = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 37) & 255);
    const png = encodePng(width, height, pixels, 4);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks = new Map<string, Buffer>();
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at);
      const type = png.toString('latin1', at + 4, at + 8);
      const body = png.subarray(at + 8, at + 8 + length);
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
      chunks.set(type, body);
      at += 12 + length;
    }
    expect([...chunks.keys()]).toEqual(['IHDR', 'IDAT', 'IEND']);
    const header = chunks.get('IHDR')!;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([5, 3, 8, 6]);
    const raw = inflateSync(chunks.get('IDAT')!);
    expect(raw.length).toBe(height * (width * 4 + 1));
    for (let y = 0; y < height; y++) {
      expect(raw[y * (width * 4 + 1)]).toBe(0);
      expect([...raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1))]).toEqual([
        ...pixels.subarray(y * width * 4, (y + 1) * width * 4),
      ]);
    }
  });

  it('rejects a pixel buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11), 3)).toThrow(/expected 12 bytes/);
  });
});
