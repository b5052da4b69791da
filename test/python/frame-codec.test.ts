import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameError, FrameReader, type Frame } from '../../core/python/frame-codec.ts';

function chunked(parts: Buffer[], sizes: number[]): Buffer[] {
  const all = Buffer.concat(parts);
  const out: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < all.length; i++) {
    const n = sizes[i % sizes.length]!;
    out.push(all.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe('plugin process frames', () => {
  it('come back whole and in order however the stream is cut, blocks in shared memory', () => {
    const big = new Float32Array(10_000).map((_, i) => i / 3);
    const frames = [
      encodeFrame({ t: 'ready', pid: 1 }),
      encodeFrame({ t: 'result', id: 1 }, [big, new Uint32Array([0, 1, 2]), new Uint8Array(0)]),
      encodeFrame({ t: 'progress', id: 2, text: 'é ✓' }),
    ].flat();
    for (const sizes of [[1], [3, 7], [4096], [1 << 20], [5, 1, 40003]]) {
      const got: Frame[] = [];
      const reader = new FrameReader((frame) => got.push(frame));
      for (const chunk of chunked(frames, sizes)) reader.push(chunk);
      expect(got.map((f) => f.header.t)).toEqual(['ready', 'result', 'progress']);
      expect(got[2]!.header.text).toBe('é ✓');
      const [floats, ints, empty] = got[1]!.blocks;
      expect(floats!.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(new Float32Array(floats!.buffer)).toEqual(big);
      expect([...new Uint32Array(ints!.buffer)]).toEqual([0, 1, 2]);
      expect(empty!.length).toBe(0);
    }
  });

  it('refuses a header length no process would send', () => {
    const reader = new FrameReader(() => {});
    expect(() => reader.push(Buffer.from([0xff, 0xff, 0xff, 0x7f]))).toThrow(/frame header/);
  });

  it('refuses a frame declaring more than its limit before allocating anything', () => {
    const reader = new FrameReader(() => {}, 2 ** 30);
    const before = process.memoryUsage().arrayBuffers;
    const forged = Buffer.from(JSON.stringify({ t: 'result', id: 1, sizes: Array(64).fill(2 ** 30) }));
    const head = Buffer.alloc(4);
    head.writeUInt32LE(forged.length, 0);
    expect(() => reader.push(Buffer.concat([head, forged]))).toThrow(/64 GiB|68719476736 bytes, past the 1073741824-byte limit/);
    // Without a limit the same header is taken, and still nothing is allocated before bytes come.
    expect(() => new FrameReader(() => {}).push(Buffer.concat([head, forged]))).not.toThrow();
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 ** 20);
    for (const sizes of [[-1], [1.5], ['9'], 'x']) {
      const bad = Buffer.from(JSON.stringify({ t: 'result', sizes }));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bad.length, 0);
      expect(() => new FrameReader(() => {}).push(Buffer.concat([length, bad]))).toThrow(FrameError);
    }
  });

  it('takes memory for a block only once its first byte arrives', () => {
    const got: Frame[] = [];
    const reader = new FrameReader((frame) => got.push(frame), 2 ** 30);
    const header = Buffer.from(JSON.stringify({ t: 'result', id: 1, sizes: [32 * 2 ** 20, 3] }));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    const before = process.memoryUsage().arrayBuffers;
    reader.push(Buffer.concat([length, header]));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 ** 20);
    reader.push(Buffer.from([7]));
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(32 * 2 ** 20);
    reader.push(Buffer.alloc(32 * 2 ** 20 - 1));
    reader.push(Buffer.from([1, 2, 3]));
    expect(got).toHaveLength(1);
    expect(got[0]!.blocks[0]![0]).toBe(7);
    expect([...got[0]!.blocks[1]!]).toEqual([1, 2, 3]);
  });
});
