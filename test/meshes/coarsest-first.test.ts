/**
 * A level set built coarsest first (an edited version's changed segment): its thread tells the
 * coarsest level before the finer ones are encoded, and the set it then finishes is byte for byte
 * the one-pass build's. What a viewer reads first (the segment's sidecar, the coarsest level's
 * sidecar and GLB fragments) is the same from the told level as from the finished set. Through
 * the level-set cache, on a real encode pool whose finished sets are held back: the coarsest
 * level is answered while its set is still unfinished, and the set is answered once it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { buildLabelIndex } from '../../core/labels/label-index.ts';
import { levelSidecar, segmentSidecar } from '../../core/meshes/lod-documents.ts';
import { labelSource, voxelTransform } from '../../core/meshes/lod-sources.ts';
import type { MeshLodsTask } from '../../core/meshes/lod-tasks.ts';
import type { CoarsestLevel, ShownLevels } from '../../core/meshes/level-set.ts';
import { MeshLods } from '../../core/meshes/mesh-lods.ts';
import type { RegionLabels } from '../../core/meshes/region-labels.ts';
import { buildSegmentLods } from '../../core/meshes/segment-lods.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { createPools, type Pools } from '../../core/workers/pool.ts';
import { meshLodsRunner } from '../../core/workers/task-pool.ts';

type StoredVolume = Extract<StoredResult, { type: 'volume' }>;

/** A wavy ball of label 1 of about `r` voxels in an n³ volume, label 2 beside it. */
function ball(r: number): StoredVolume {
  const n = 2 * r + 8;
  const data = new Uint32Array(n ** 3);
  for (let z = 0; z < n; z++)
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        const d = Math.hypot(z - n / 2, (y - n / 2) * 1.3, x - n / 2) + 2 * Math.sin(x / 3);
        data[(z * n + y) * n + x] = d < r ? 1 : x < 3 ? 2 : 0;
      }
  return { type: 'volume', data, shape: [n, n, n], dtype: 'uint32', spacing: [1.5, 1, 0.5], origin: [3, -2, 1], labels: true } as StoredVolume;
}

/** The coarsest level's GLB fragments, in order. */
function coarsestGlbs(lods: ShownLevels): Buffer[] {
  const level = lods.levels - 1;
  return lods.fragments.filter((f) => f.level === level).map((f) => Buffer.from(lods.glb.subarray(f.glb[0], f.glb[0] + f.glb[1])));
}

/** What a viewer reads first of segment 1, as bytes. */
function firstReads(lods: ShownLevels): string[] {
  return [JSON.stringify(segmentSidecar(1, lods)), JSON.stringify(levelSidecar(1, lods, lods.levels - 1)), ...coarsestGlbs(lods).map((b) => b.toString('hex'))];
}

describe('a level set built coarsest first', () => {
  it('tells the coarsest level first, and finishes the one-pass build’s bytes', async () => {
    for (const r of [10, 24]) {
      const volume = ball(r);
      const source = labelSource(volume, 1, [0, 0, 0, ...volume.shape.map((v) => v - 1)]);
      const whole = await buildSegmentLods(source);
      let told: CoarsestLevel | null = null;
      const first = await buildSegmentLods(source, {
        onCoarsest: (coarsest) => {
          expect(told, 'told once').toBeNull();
          told = coarsest;
        },
      });
      expect(Buffer.from(first.packed).equals(Buffer.from(whole.packed)), `ball of ${r}`).toBe(true);
      expect(told, `ball of ${r}: told`).not.toBeNull();
      const coarsest = told! as CoarsestLevel;
      expect(coarsest.levels).toBe(whole.levels);
      expect(firstReads(coarsest)).toEqual(firstReads(whole));
      expect(coarsest.fragments.every((f) => f.level === whole.levels - 1)).toBe(true);
    }
  });
});

describe('the level-set cache with a set built coarsest first', () => {
  let pools: Pools;
  beforeAll(async () => {
    pools = await createPools({ computeThreads: 1 });
  });
  afterAll(() => pools?.destroy());

  it('answers the coarsest level while the set is held back, then the set', async () => {
    const volume = ball(24);
    const index = buildLabelIndex(volume.data, volume.shape);
    const region = volume.data as Uint32Array;
    const labels: RegionLabels = {
      type: 'regionLabels',
      id: Promise.resolve('a'.repeat(64)),
      rooms: ['r'],
      transform: voxelTransform(volume),
      index: () => Promise.resolve(index),
      // The ball's volume as an edited layer with no edits: what a thread reads a box from.
      take: (from, to) => {
        const layer = new LayerEdits(new LabelVolume(region, volume.shape as [number, number, number], 'uint32', 8), tablesOf());
        return Promise.resolve(layer.regionTask(0, [{ from, to }]));
      },
    };
    const real = meshLodsRunner(pools.encode);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ports: boolean[] = [];
    const meshes = new MeshLods({
      run: {
        build: async (task: MeshLodsTask) => {
          ports.push(task.port !== undefined);
          const built = await real.build(task);
          await held;
          return built;
        },
        assemble: real.assemble,
      },
      turns: { run: (_client, work) => work() },
      budget: new ResultBudget<StoredResult>(2 ** 30, () => 1024),
      labelIndex: () => Promise.reject(new Error('no stored labels here')),
      lodTriangles: 100,
      kept: null,
      idOf: () => Promise.resolve('b'.repeat(64)),
      warn: () => {},
    });
    const subject = await meshes.subject(labels, 'a'.repeat(64));
    let finished = false;
    const whole = meshes.segment(subject, 1).then((lods) => ((finished = true), lods));
    const shown = await meshes.shown(subject, 1);
    expect(finished).toBe(false);
    expect('counts' in shown, 'the coarsest level alone').toBe(true);
    expect(ports).toEqual([true]);
    release();
    const lods = await whole;
    expect(firstReads(shown)).toEqual(firstReads(lods));
    // Once finished, the set itself is shown, and it is the one-pass build's.
    expect(await meshes.shown(subject, 1)).toBe(lods);
    const source = labelSource(volume, 1, Array.from(index.boxes.subarray(0, 6)), 2 * index.faces[0]!);
    expect(Buffer.from(lods.packed).equals(Buffer.from((await buildSegmentLods(source)).packed))).toBe(true);
  });
});
