import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, type Frame } from '../../core/python/frame-codec.ts';

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
});
