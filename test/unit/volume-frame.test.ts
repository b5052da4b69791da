/**
 * The voxel-to-physical mapping every side shares (sdk/volume-frame.ts): C-ordered shape,
 * spacing and origin read as (x, y, z); a voxel's centre at origin + index × spacing; the voxel
 * holding a point found again from any point of its cube (the far face belongs to the last
 * voxel); the box a volume fills; time and channel axes ignored; what a volume leaves unsaid
 * taken as spacing 1 and origin 0.
 */
import { describe, expect, it } from 'vitest';
import { volumeBox, volumeCentre, volumeFrameOf, voxelAt, voxelCentre, voxelCoordinates } from '../../core/sdk/volume-frame.ts';

describe('volume frame', () => {
  const frame = volumeFrameOf({ shape: [10, 20, 30], spacing: [2, 0.65, 0.5], origin: [-1, 0, 4] });

  it('reads C order as x, y, z', () => {
    expect(frame).toEqual({ size: [30, 20, 10], spacing: [0.5, 0.65, 2], origin: [4, 0, -1] });
    expect(volumeFrameOf({ shape: [2, 3, 10, 20, 30], spacing: [2, 0.65, 0.5] }).size).toEqual([30, 20, 10]);
    expect(volumeFrameOf({ shape: [20, 30], spacing: null, origin: null })).toEqual({ size: [30, 20, 1], spacing: [1, 1, 1], origin: [0, 0, 0] });
  });

  it('places voxel centres and finds the voxel of any point of its cube', () => {
    expect(voxelCentre(frame, [0, 0, 0])).toEqual([4, 0, -1]);
    expect(voxelCentre(frame, [2, 10, 3])).toEqual([5, 6.5, 5]);
    expect(voxelCoordinates(frame, [5, 6.5, 5])).toEqual([2, 10, 3]);
    for (const voxel of [[0, 0, 0], [29, 19, 9], [7, 13, 4]] as [number, number, number][]) {
      const centre = voxelCentre(frame, voxel);
      expect(voxelAt(frame, centre)).toEqual(voxel);
      expect(voxelAt(frame, [centre[0] + 0.24, centre[1] - 0.32, centre[2] + 0.99])).toEqual(voxel);
    }
    const { min, max } = volumeBox(frame);
    expect(min).toEqual([3.75, -0.325, -2]);
    expect(max).toEqual([18.75, 12.675, 18]);
    expect(voxelAt(frame, max)).toEqual([29, 19, 9]);
    expect(voxelAt(frame, min)).toEqual([0, 0, 0]);
    expect(voxelAt(frame, [max[0] + 0.01, 0, 0])).toBeNull();
    expect(voxelAt(frame, [min[0] - 0.01, 0, 0])).toBeNull();
    volumeCentre(frame).forEach((v, axis) => expect(v).toBeCloseTo([11.25, 6.175, 8][axis]!, 12));
  });
});
