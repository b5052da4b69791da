/**
 * Surface nets on analytic fields: the sphere's area and volume come out right, the mesh is
 * closed and outward-facing, and a cancelled extraction stops.
 */
import { describe, expect, it } from 'vitest';
import { sampleField } from '../../plugins/isosurfaces/sampled-field.ts';
import { extractSurface } from '../../plugins/isosurfaces/surface-nets.ts';
import { openOrInconsistentEdges, signedVolume, surfaceArea } from './mesh-measures.ts';

const none = async (): Promise<void> => {};

describe('surface nets', () => {
  it('extracts a closed, outward-facing sphere with the right area and volume', async () => {
    const radius = 0.8;
    const field = await sampleField((x, y, z) => radius - Math.hypot(x, y, z), 48, -1, 1, none);
    const mesh = await extractSurface(field, 0, none);
    expect(openOrInconsistentEdges(mesh)).toEqual([]);
    const area = surfaceArea(mesh);
    expect(Math.abs(area / (4 * Math.PI * radius ** 2) - 1)).toBeLessThan(0.01);
    const volume = signedVolume(mesh);
    expect(Math.abs(volume / ((4 / 3) * Math.PI * radius ** 3) - 1)).toBeLessThan(0.01);
    for (let i = 0; i < mesh.vertices.length; i += 3) {
      const r = Math.hypot(mesh.vertices[i]!, mesh.vertices[i + 1]!, mesh.vertices[i + 2]!);
      expect(Math.abs(r - radius)).toBeLessThan(field.spacing[0]);
    }
  });

  it('honours the level: field = |p| at level 0.5 is a sphere of radius 0.5 (inside is larger values)', async () => {
    // Larger values are inside, so use the negated distance to keep the ball inside.
    const field = await sampleField((x, y, z) => -Math.hypot(x, y, z), 40, -1, 1, none);
    const mesh = await extractSurface(field, -0.5, none);
    expect(openOrInconsistentEdges(mesh)).toEqual([]);
    expect(Math.abs(surfaceArea(mesh) / (4 * Math.PI * 0.25) - 1)).toBeLessThan(0.02);
    expect(signedVolume(mesh)).toBeGreaterThan(0);
  });

  it('finds no surface in a field that never crosses the level', async () => {
    const field = await sampleField(() => 1, 8, -1, 1, none);
    const mesh = await extractSurface(field, 0, none);
    expect(mesh.vertices.length).toBe(0);
    expect(mesh.indices.length).toBe(0);
  });

  it('calls back once per slab and stops when the callback throws', async () => {
    const field = await sampleField((x, y, z) => 0.7 - Math.hypot(x, y, z), 20, -1, 1, none);
    const slabs: number[] = [];
    await extractSurface(field, 0, async (slab, total) => { slabs.push(slab); expect(total).toBe(19); });
    expect(slabs).toEqual(Array.from({ length: 19 }, (_, i) => i));
    let calls = 0;
    await expect(
      extractSurface(field, 0, async () => { if (++calls === 3) throw new Error('stop'); }),
    ).rejects.toThrow('stop');
    expect(calls).toBe(3);
  });
});
