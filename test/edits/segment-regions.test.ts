/**
 * A changed segment's entry found from boxes apart (labels/segment-regions.ts): boxes that
 * overlap or touch are joined until none does, every voxel they held is still held, and the
 * segment's voxels, box and faces found box by box are those the test counts over the whole
 * volume with its own walk, for a segment in two far blobs joined by a merge, whose boxes are
 * given overlapping, touching and apart.
 */
import { describe, expect, it } from 'vitest';
import { apartBoxes, entryInParts } from '../../core/labels/segment-regions.ts';

const [NZ, NY, NX] = [12, 20, 24];
const at = (z: number, y: number, x: number) => (z * NY + y) * NX + x;

/** Two blobs of segment 7 far apart, one with a hole and a notch, over other ids. */
function volume(): Uint32Array {
  const data = new Uint32Array(NZ * NY * NX).map((_, i) => 1 + (i % 5 === 0 ? 2 : 0));
  const fill = (z0: number, y0: number, x0: number, z1: number, y1: number, x1: number, id: number) => {
    for (let z = z0; z < z1; z++) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[at(z, y, x)] = id;
  };
  fill(1, 1, 1, 5, 6, 7, 7);
  fill(2, 2, 2, 3, 3, 3, 4);
  fill(1, 1, 6, 2, 2, 7, 0);
  fill(7, 13, 16, 11, 19, 23, 7);
  return data;
}

/** Segment `id`'s voxels, box and faces (against another id or the outside), by the test's own walk. */
function walk(data: Uint32Array, id: number) {
  let [count, faces] = [0, 0];
  const box = [NZ, NY, NX, -1, -1, -1];
  for (let z = 0; z < NZ; z++)
    for (let y = 0; y < NY; y++)
      for (let x = 0; x < NX; x++) {
        if (data[at(z, y, x)] !== id) continue;
        count++;
        [z, y, x].forEach((v, k) => ([box[k], box[k + 3]] = [Math.min(box[k]!, v), Math.max(box[k + 3]!, v)]));
        for (const [dz, dy, dx] of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as const) {
          const [nz, ny, nx] = [z + dz, y + dy, x + dx];
          const outside = nz < 0 || ny < 0 || nx < 0 || nz >= NZ || ny >= NY || nx >= NX;
          if (outside || data[at(nz, ny, nx)] !== id) faces++;
        }
      }
  return { count, faces, box };
}

function cut(data: Uint32Array, from: readonly number[], to: readonly number[]) {
  const shape = [to[0]! - from[0]!, to[1]! - from[1]!, to[2]! - from[2]!];
  const out: number[] = [];
  for (let z = from[0]!; z < to[0]!; z++) for (let y = from[1]!; y < to[1]!; y++) for (let x = from[2]!; x < to[2]!; x++) out.push(data[at(z, y, x)]!);
  return { data: out, shape, from };
}

describe('a segment found in boxes apart', () => {
  const data = volume();
  // The first blob's box in two overlapping halves and a box touching them; the second blob's box alone.
  const boxes = [
    { from: [1, 1, 1], to: [5, 6, 4] },
    { from: [1, 1, 3], to: [5, 6, 7] },
    { from: [5, 2, 2], to: [6, 4, 4] },
    { from: [7, 13, 16], to: [11, 19, 23] },
  ];

  it('joins boxes that overlap or touch and keeps those apart', () => {
    const apart = apartBoxes(boxes);
    expect(apart).toEqual([
      { from: [1, 1, 1], to: [6, 6, 7] },
      { from: [7, 13, 16], to: [11, 19, 23] },
    ]);
    expect(apartBoxes([{ from: [0, 0, 0], to: [2, 2, 2] }, { from: [3, 0, 0], to: [4, 2, 2] }])).toHaveLength(2);
  });

  it('finds the segment’s voxels, box and faces as a walk over the whole volume does', () => {
    const parts = apartBoxes(boxes).map((b) => cut(data, b.from, b.to));
    expect(entryInParts(parts, 7)).toEqual(walk(data, 7));
    expect(entryInParts(parts, 99)).toBeNull();
  });
});
