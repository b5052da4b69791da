/**
 * A surface too large for one simplification is built in pieces: blocks of the octree, each
 * simplified with the vertices on its faces held still. Built with pieces far smaller than the
 * surface, a gyroid's level set has the same level 0 as the whole build, every level closed
 * (each edge of the fragments, placed on the level's grid, shared by an even number of
 * triangles: no crack where blocks meet), each level about a quarter of the one below, and each
 * level's fragments in Z-curve order; the coarsest holds at least 512 triangles.
 */
import { describe, expect, it } from 'vitest';
import { labelSource } from '../../core/meshes/lod-sources.ts';
import { buildSegmentLods } from '../../core/meshes/segment-lods.ts';
import { blockLevel } from '../../core/meshes/block-split.ts';
import { decodeDraco } from '../../core/meshes/assemble-level.ts';
import { mortonCode } from '../../core/meshes/level-fragments.ts';
import { CELL_STEPS, planLods } from '../../core/meshes/lod-plan.ts';
import { boundsOf } from '../../core/geometry/cluster-mesh.ts';
import { meanEdge } from '../../core/meshes/level-steps.ts';
import type { SegmentLods } from '../../core/meshes/level-set.ts';

const N = 64;

/** One side of a gyroid of period 16 voxels: label 1 (about 210,000 triangles). */
function gyroid() {
  const data = new Uint8Array(N ** 3);
  const w = (2 * Math.PI) / 16;
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) {
        const g = Math.sin(w * x) * Math.cos(w * y) + Math.sin(w * y) * Math.cos(w * z) + Math.sin(w * z) * Math.cos(w * x);
        data[(z * N + y) * N + x] = g > 0 ? 1 : 2;
      }
  const volume = { type: 'volume', data, shape: [N, N, N], dtype: 'uint8', labels: true } as never;
  return labelSource(volume, 1, [0, 0, 0, N - 1, N - 1, N - 1]);
}

/** Per level: edges (on the level's grid) not shared by an even number of triangles, and whether fragments come in Z-curve order. */
async function levelChecks(lods: SegmentLods): Promise<{ odd: number; ordered: boolean }[]> {
  const out = [];
  for (let level = 0; level < lods.levels; level++) {
    const fragments = lods.fragments.filter((fragment) => fragment.level === level);
    const codes = fragments.map((fragment) => mortonCode(...fragment.cell));
    const edges = new Map<string, number>();
    for (const fragment of fragments) {
      const { positions, indices } = await decodeDraco(lods.draco.subarray(fragment.draco[0], fragment.draco[0] + fragment.draco[1]));
      const at = (v: number) => [0, 1, 2].map((k) => positions[v * 3 + k]! + CELL_STEPS * fragment.cell[k]!).join(',');
      for (let t = 0; t < indices.length; t += 3) {
        for (let j = 0; j < 3; j++) {
          const a = at(indices[t + j]!), b = at(indices[t + ((j + 1) % 3)]!);
          const key = a < b ? `${a}|${b}` : `${b}|${a}`;
          edges.set(key, (edges.get(key) ?? 0) + 1);
        }
      }
    }
    out.push({ odd: [...edges.values()].filter((n) => n % 2 === 1).length, ordered: codes.every((code, i) => i === 0 || codes[i - 1]! < code) });
  }
  return out;
}

describe('a level set built in pieces', () => {
  it('matches the whole build at level 0, has no cracks and keeps a quarter a level', async () => {
    const source = gyroid();
    const triangles = source.indices.length / 3;
    const pieces = 20_000;
    // The pieces are blocks between level 0 and the root: the build is in pieces at all.
    const { min, max } = boundsOf(source.positions);
    const plan = planLods(min, max, triangles, meanEdge(source.positions, source.indices));
    const blocks = blockLevel({ type: 'mesh', vertices: source.positions, indices: source.indices }, plan, pieces);
    expect(blocks).toBeGreaterThan(0);
    expect(blocks).toBeLessThan(plan.levels - 1);

    const whole = await buildSegmentLods(source);
    const inPieces = await buildSegmentLods(source, { pieceTriangles: pieces });
    expect(inPieces.levels).toBe(whole.levels);
    expect(inPieces.triangles[0]).toBe(whole.triangles[0]);
    const checks = await levelChecks(inPieces);
    expect(checks.map((check) => check.odd)).toEqual(checks.map(() => 0));
    expect(checks.every((check) => check.ordered)).toBe(true);
    for (let level = 1; level < inPieces.levels; level++) {
      const ratio = inPieces.triangles[level]! / inPieces.triangles[level - 1]!;
      expect(ratio, `level ${level} of ${inPieces.triangles.join(', ')}`).toBeGreaterThan(0.15);
      expect(ratio, `level ${level} of ${inPieces.triangles.join(', ')}`).toBeLessThan(0.36);
    }
    expect(inPieces.triangles.at(-1)).toBeGreaterThanOrEqual(512);
  }, 120_000);
});
