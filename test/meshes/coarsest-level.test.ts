/**
 * A level set's coarsest level holds about 2,048 triangles, and at least 512 where the surface
 * has more: the plan's level count leaves it between about 724 and 2,896 for any surface size,
 * and a surface of many handles (a gyroid's: edge collapse stalls, and clustering takes over)
 * is not simplified to a handful of triangles on the way (a 30.7-million-triangle gyroid's
 * coarsest was 6 triangles; this one's, before the change, 326).
 */
import { describe, expect, it } from 'vitest';
import { labelSource } from '../../core/meshes/lod-sources.ts';
import { buildSegmentLods } from '../../core/meshes/segment-lods.ts';
import { planLods } from '../../core/meshes/lod-plan.ts';

const N = 64;

/** One side of a gyroid of `period` voxels filling an N³ volume, as label 1's surface. */
function gyroid(period: number) {
  const data = new Uint8Array(N ** 3);
  const w = (2 * Math.PI) / period;
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) {
        const g = Math.sin(w * x) * Math.cos(w * y) + Math.sin(w * y) * Math.cos(w * z) + Math.sin(w * z) * Math.cos(w * x);
        data[(z * N + y) * N + x] = g > 0 ? 1 : 2;
      }
  const volume = { type: 'volume', data, shape: [N, N, N], dtype: 'uint8', labels: true } as never;
  return labelSource(volume, 1, [0, 0, 0, N - 1, N - 1, N - 1]);
}

describe('the coarsest level', () => {
  it('is planned at about 2,048 triangles whatever the surface size', () => {
    for (let triangles = 2100; triangles < 2e8; triangles = Math.ceil(triangles * 1.37)) {
      const plan = planLods([0, 0, 0], [1000, 1000, 1000], triangles, 0.01);
      const coarsest = triangles / 4 ** (plan.levels - 1);
      expect(coarsest, `${triangles} triangles in ${plan.levels} levels`).toBeGreaterThanOrEqual(700);
      expect(coarsest, `${triangles} triangles in ${plan.levels} levels`).toBeLessThanOrEqual(2900);
    }
  });

  it('holds at least 512 triangles of a gyroid of many handles', async () => {
    const source = gyroid(4);
    expect(source.indices.length / 3).toBeGreaterThan(500_000);
    const lods = await buildSegmentLods(source);
    const coarsest = lods.triangles.at(-1)!;
    expect(coarsest, lods.triangles.join(', ')).toBeGreaterThanOrEqual(512);
    expect(coarsest, lods.triangles.join(', ')).toBeLessThanOrEqual(4096);
  }, 120_000);
});
