/**
 * The seeded region growing example: seeds given as physical points (as a room's marks are)
 * find their voxels through the shared volume frame on an anisotropic volume, each grows its
 * own region within the tolerance and no further, a seed outside the volume grows nothing, and
 * the answer is a labels volume with the input's spacing and origin.
 */
import { describe, expect, it } from 'vitest';
import type { VolumeInput } from 'vitrine';
import { grow_regions } from '../../plugins/region-growing/index.ts';
import { volumeFrameOf, voxelCentre } from '../../core/sdk/volume-frame.ts';

describe('grow_regions', () => {
  it('grows one labelled region per seed on an anisotropic volume, from physical seeds', () => {
    // 4 slices of 6 × 8; two bright boxes (value 100) apart in x, background 0.
    const [d, h, w] = [4, 6, 8];
    const data = new Float32Array(d * h * w);
    for (let z = 1; z < 3; z++) for (let y = 1; y < 5; y++) for (const x of [1, 2, 5, 6]) data[(z * h + y) * w + x] = 100 + (x > 3 ? 3 : 0);
    const volume = { type: 'volume', shape: [d, h, w], dtype: 'float32', data, spacing: [2, 0.65, 0.65], origin: [1, 0, 0] } as VolumeInput;
    const frame = volumeFrameOf(volume);
    const seeds = [voxelCentre(frame, [1, 2, 1]), voxelCentre(frame, [6, 4, 2]), [99, 99, 99] as [number, number, number]];
    const result = grow_regions(volume, seeds, 0.1);
    expect(result).toMatchObject({ shape: [4, 6, 8], dtype: 'uint8', labels: true, spacing: [2, 0.65, 0.65], origin: [1, 0, 0] });
    const labels = result.data as Uint8Array;
    const count = (k: number) => labels.filter((v) => v === k).length;
    expect([count(1), count(2), count(3)]).toEqual([16, 16, 0]);
    expect(labels[(2 * h + 4) * w + 6]).toBe(2);
    expect(labels[(1 * h + 1) * w + 1]).toBe(1);
    expect(labels[0]).toBe(0);
    // A wide tolerance lets the first seed take everything it reaches; the second finds its voxel taken.
    const wide = grow_regions(volume, seeds, 1).data as Uint8Array;
    expect(wide.every((v) => v === 1)).toBe(true);
  });
});
