/**
 * An op's changes as the change list hands them over: sorted by index whatever order the op
 * found them in (a flood finds them ring by ring, a merge chunk by chunk), each voxel with its
 * own before and after, and the box of them all; the same for indices of up to 32 bits (sorted
 * by their digits) and past them.
 */
import { describe, expect, it } from 'vitest';
import { ChangeList } from '../../core/edits/voxel-changes.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

function shuffledDistinct(count: number, top: number, rand: () => number): number[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(rand() * top));
  return [...picked];
}

describe('the changes of an op', () => {
  it('are sorted by index with their own values and box, found in any order', () => {
    const shape: [number, number, number] = [40, 50, 60];
    for (let round = 0; round < 20; round++) {
      const rand = seededRandom(round + 1);
      const found = shuffledDistinct(1 + Math.floor(rand() * 3000), 40 * 50 * 60, rand);
      if (round % 5 === 0) found.sort((a, b) => a - b);
      const list = new ChangeList();
      for (const i of found) list.add(i, i % 7, (i % 7) + 1);
      const { index, before, after, box } = list.done(shape);
      const sorted = [...found].sort((a, b) => a - b);
      expect(Array.from(index)).toEqual(sorted);
      expect(Array.from(before)).toEqual(sorted.map((i) => i % 7));
      expect(Array.from(after)).toEqual(sorted.map((i) => (i % 7) + 1));
      const places = sorted.map((i) => [Math.floor(i / 3000), Math.floor(i / 60) % 50, i % 60]);
      const from = [0, 1, 2].map((a) => Math.min(...places.map((p) => p[a]!)));
      const to = [0, 1, 2].map((a) => Math.max(...places.map((p) => p[a]!)) + 1);
      expect(box).toEqual({ from, to });
    }
  });

  it('are sorted for indices up to 32 bits and past them, and none has no box', () => {
    const rand = seededRandom(7);
    for (const top of [2 ** 32, 2 ** 48]) {
      const found = shuffledDistinct(500, top, rand);
      const list = new ChangeList();
      for (const i of found) list.add(i, i % 3, 7);
      const { index, before } = list.done([2 ** 16, 2 ** 16, 2 ** 16]);
      const sorted = [...found].sort((a, b) => a - b);
      expect(Array.from(index)).toEqual(sorted);
      expect(Array.from(before)).toEqual(sorted.map((i) => i % 3));
    }
    expect(new ChangeList().done([4, 4, 4]).box).toBeNull();
  });
});
