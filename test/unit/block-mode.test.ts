/**
 * Label block reduction against a plain count of every block: the most frequent non-zero id,
 * ties to the smallest, 0 only for a block all background; for the small blocks of a pyramid
 * level and the large ones of a `max_dim` delivery (which are sorted another way).
 */
import { describe, expect, it } from 'vitest';
import { blockMeanShape } from '../../core/pyramid/block-mean.ts';
import { blockMode } from '../../core/pyramid/block-mode.ts';

/** Each block's mode by counting its ids. */
function counted(data: Uint8Array, shape: number[], factors: number[]): number[] {
  const [nz, ny, nx] = shape as [number, number, number];
  const [oz, oy, ox] = blockMeanShape(shape, factors) as [number, number, number];
  const out: number[] = [];
  for (let bz = 0; bz < oz; bz++)
    for (let by = 0; by < oy; by++)
      for (let bx = 0; bx < ox; bx++) {
        const counts = new Map<number, number>();
        for (let z = bz * factors[0]!; z < Math.min(nz, (bz + 1) * factors[0]!); z++)
          for (let y = by * factors[1]!; y < Math.min(ny, (by + 1) * factors[1]!); y++)
            for (let x = bx * factors[2]!; x < Math.min(nx, (bx + 1) * factors[2]!); x++) {
              const v = data[(z * ny + y) * nx + x]!;
              if (v !== 0) counts.set(v, (counts.get(v) ?? 0) + 1);
            }
        const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        out.push(ranked[0]?.[0] ?? 0);
      }
  return out;
}

describe('label block modes', () => {
  it('pick the most frequent non-zero id of small and large blocks, ties to the smallest', () => {
    const shape = [23, 30, 29];
    const data = new Uint8Array(shape[0]! * shape[1]! * shape[2]!);
    // A few ids, background in places, a block of one id, and even counts that tie.
    let seed = 7;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      data[i] = i < 400 ? 9 : (seed >> 8) % 5 === 0 ? 0 : 1 + ((seed >> 12) % 4);
    }
    for (const factors of [[2, 2, 2], [7, 7, 7], [3, 5, 4]]) {
      const out = new Uint32Array(blockMeanShape(shape, factors).reduce((a, b) => a * b, 1));
      blockMode(data, shape, factors, out);
      expect(Array.from(out), factors.join('×')).toEqual(counted(data, shape, factors));
    }
  });
});
