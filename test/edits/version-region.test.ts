/**
 * A box of a version read from the layer's chunks (version-region.ts), without the version made
 * whole: what the layer's turn takes (the chunks the box meets, frozen, and the later edits that
 * wrote in it) read into the box voxel for voxel as the box cut from the version made whole, for
 * every version after several edits (paints, a split, a merge), boxes across chunk borders
 * included; the same after random edits and random boxes, and a segment's level set built on a
 * real encode pool from what the turn took as from the box read here,
 * and still after later edits wrote into the chunks taken (they write copies); several
 * boxes read in one task each the same; segments' entries found in boxes on an encode thread (into
 * memory it keeps between tasks) those a walk over the version made whole finds. And a changed
 * segment's level set built from its box alone is the one built from the whole version, byte for
 * byte (the same manifest, Draco and GLB fragments and table).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import { regionMasks, regionsOf, regionVoxels, type VersionRegionTask, type VoxelRegion } from '../../core/edits/version-region.ts';
import { createPools, type Pools } from '../../core/workers/pool.ts';
import { runTask } from '../../core/workers/task-pool.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import type { LabelEdit } from '../../core/wire/edit-types.ts';
import { runLodsTask } from '../../core/meshes/run-lods-task.ts';
import { voxelTransform } from '../../core/meshes/lod-sources.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { boxLabels } from '../helpers/box-labels.ts';
import { applyEdit } from '../helpers/apply-edit.ts';

const SHAPE: [number, number, number] = [21, 26, 30];
const [NZ, NY, NX] = SHAPE;
const CHUNK = 8;

const run = applyEdit;

/** The box `from`..`to` of version `version`, taken now and read at once on this thread. */
function regionAt(edits: LayerEdits, version: number, from: number[], to: number[]): VoxelRegion {
  const task = edits.regionTask(version, [{ from, to }]);
  return regionsOf(task, regionVoxels(task))[0]!;
}

/** A layer of boxes with edits over it: paints, a split and a merge. */
function edited(): LayerEdits {
  const volume = new LabelVolume(boxLabels(SHAPE, 41, 8, [9, 11, 13]), SHAPE, 'uint32', CHUNK);
  const edits = new LayerEdits(volume, tablesOf());
  const at = (i: number) => [Math.floor(i / (NY * NX)), Math.floor(i / NX) % NY, i % NX] as [number, number, number];
  const firstOf = (id: number) => at(Array.from(versionVoxels(edits.versionTask(edits.version))).indexOf(id));
  const lastOf = (id: number) => at(Array.from(versionVoxels(edits.versionTask(edits.version))).lastIndexOf(id));
  run(edits, { op: 'paint', label: 3, center: [10, 12, 14], radius: 4 });
  run(edits, { op: 'split', segment: 5, seeds: [[firstOf(5)], [lastOf(5)]] });
  run(edits, { op: 'paint', label: 0, center: [4, 20, 8], radius: 3 });
  run(edits, { op: 'merge', segments: [2, 7] });
  run(edits, { op: 'paint', label: 9, center: [15, 5, 25], radius: 5, only: 0 });
  return edits;
}

/** The box `from`..`to` cut from a whole volume, the test's own way. */
function cut(data: ArrayLike<number>, from: number[], to: number[]): number[] {
  const out: number[] = [];
  for (let z = from[0]!; z < to[0]!; z++)
    for (let y = from[1]!; y < to[1]!; y++) for (let x = from[2]!; x < to[2]!; x++) out.push(data[(z * NY + y) * NX + x]!);
  return out;
}

/** The first and last voxel (z, y, x) of `id` in a whole volume. */
function boxOf(data: ArrayLike<number>, id: number): number[] {
  const box = [NZ, NY, NX, -1, -1, -1];
  for (let i = 0; i < data.length; i++) {
    if (data[i] !== id) continue;
    [Math.floor(i / (NY * NX)), Math.floor(i / NX) % NY, i % NX].forEach((v, axis) => {
      box[axis] = Math.min(box[axis]!, v);
      box[axis + 3] = Math.max(box[axis + 3]!, v);
    });
  }
  return box;
}

describe('a box of a version', () => {
  const edits = edited();

  it('is the same box of the version made whole, for every version', () => {
    const boxes = [
      [[0, 0, 0], [NZ, NY, NX]],
      [[3, 5, 7], [17, 19, 23]],
      [[7, 7, 7], [9, 9, 9]],
      [[0, 15, 2], [21, 26, 11]],
    ];
    for (let version = 0; version <= edits.version; version++) {
      const whole = versionVoxels(edits.versionTask(version));
      for (const [from, to] of boxes) {
        const region = regionAt(edits, version, from!, to!);
        expect(region.from).toEqual(from);
        expect(region.shape).toEqual([to![0]! - from![0]!, to![1]! - from![1]!, to![2]! - from![2]!]);
        expect(Array.from(region.data), `version ${version}, ${from} to ${to}`).toEqual(cut(whole, from!, to!));
      }
    }
  });

  it('builds a changed segment’s level set byte for byte as the whole version does', async () => {
    const spacing = [2, 0.5, 1.25];
    const origin = [10, -3, 7];
    // Version 2 (after the split) and the newest, each with a segment it changed.
    for (const [version, id] of [[2, 5], [4, 2], [edits.version, 9]] as const) {
      const data = versionVoxels(edits.versionTask(version));
      const volume = { type: 'volume', shape: [...SHAPE], dtype: 'uint32', data, spacing, origin } as StoredResult & { type: 'volume' };
      const box = boxOf(data, id);
      expect(box[3], `segment ${id} at version ${version}`).toBeGreaterThanOrEqual(0);
      const whole = await runLodsTask({ op: 'meshLods', source: { kind: 'labels', volume, id, box, triangles: 0 } });
      const region = regionAt(edits, version, box.slice(0, 3), box.slice(3).map((v) => v + 1));
      const source = { kind: 'region' as const, region, id, box, triangles: 0, transform: voxelTransform(volume) };
      const fromRegion = await runLodsTask({ op: 'meshLods', source });
      expect(whole.lods.fragments.length).toBeGreaterThan(0);
      expect(Buffer.from(fromRegion.lods.packed).equals(Buffer.from(whole.lods.packed)), `segment ${id} at version ${version}`).toBe(true);
      expect(fromRegion.keptId).toBe(whole.keptId);
    }
  });
});

/** A random box of the grid (at least one voxel), as `from` and `to` (exclusive). */
function randomBox(random: () => number): [number[], number[]] {
  const from: number[] = [];
  const to: number[] = [];
  for (const n of SHAPE) {
    const a = Math.floor(random() * n);
    from.push(a);
    to.push(a + 1 + Math.floor(random() * (n - a)));
  }
  return [from, to];
}

/**
 * A layer with `count` random paints and merges over it, and each of its versions made whole
 * from a twin given the same edits (so nothing but the reads under test freezes the layer's chunks).
 */
function randomlyEdited(random: () => number, count: number): { edits: LayerEdits; wholes: ArrayLike<number>[] } {
  const layer = () => new LayerEdits(new LabelVolume(boxLabels(SHAPE, 41, 8, [9, 11, 13]), SHAPE, 'uint32', CHUNK), tablesOf());
  const [edits, twin] = [layer(), layer()];
  const wholes: ArrayLike<number>[] = [versionVoxels(twin.versionTask(0))];
  while (edits.version < count) {
    const center: [number, number, number] = [Math.floor(random() * NZ), Math.floor(random() * NY), Math.floor(random() * NX)];
    const present = [...new Set(Array.from(wholes.at(-1)!))].filter((id) => id !== 0);
    let edit: LabelEdit = { op: 'paint', label: Math.floor(random() * 60), center, radius: Math.floor(random() * 6) };
    if (random() < 0.3 && present.length >= 2) {
      const a = present[Math.floor(random() * present.length)]!;
      const b = present.filter((id) => id !== a)[Math.floor(random() * (present.length - 1))]!;
      edit = { op: 'merge', segments: [a, b] };
    }
    run(edits, edit);
    run(twin, edit);
    wholes.push(versionVoxels(twin.versionTask(twin.version)));
  }
  return { edits, wholes };
}

describe('a box of a version read from what the layer’s turn took', () => {
  let pools: Pools;
  beforeAll(async () => {
    pools = await createPools({ computeThreads: 1 });
  });
  afterAll(() => pools?.destroy());

  it('is the box of the version made whole, for random edits, every version and random boxes', () => {
    const random = seededRandom(87);
    const { edits, wholes } = randomlyEdited(random, 24);
    for (let version = 0; version <= edits.version; version++) {
      for (let k = 0; k < 12; k++) {
        const [from, to] = randomBox(random);
        const region = regionAt(edits, version, from, to);
        expect(region.data.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(Array.from(region.data), `version ${version}, ${from} to ${to}`).toEqual(cut(wholes[version]!, from, to));
        // Where one of its segments lies, as a mask: 1 at its voxels, 0 elsewhere.
        const id = region.data[Math.floor(random() * region.data.length)]!;
        const mask = regionMasks(edits.regionTask(version, [{ from, to }]), [id], (_dtype, length) => new Uint8Array(length));
        expect(Array.from(mask), `segment ${id}, version ${version}, ${from} to ${to}`).toEqual(cut(wholes[version]!, from, to).map((v) => Number(v === id)));
      }
      // Several boxes read together: each the same.
      const boxes = Array.from({ length: 5 }, () => randomBox(random)).map(([from, to]) => ({ from, to }));
      const task = edits.regionTask(version, boxes);
      regionsOf(task, regionVoxels(task)).forEach((region, k) => {
        expect(region.from).toEqual(boxes[k]!.from);
        expect(Array.from(region.data), `version ${version}, box ${k} of 5`).toEqual(cut(wholes[version]!, boxes[k]!.from, boxes[k]!.to));
      });
    }
  });

  it('stays the version it was taken at while later edits write into its chunks', () => {
    const random = seededRandom(11);
    const { edits, wholes } = randomlyEdited(random, 10);
    const taken = [] as { version: number; from: number[]; to: number[]; task: VersionRegionTask }[];
    for (let version = 0; version <= edits.version; version++) {
      const [from, to] = randomBox(random);
      taken.push({ version, from, to, task: edits.regionTask(version, [{ from, to }]) });
    }
    // Paints over the whole grid: every chunk a task holds is written again.
    for (let z = 0; z < NZ; z += CHUNK)
      for (let y = 0; y < NY; y += CHUNK)
        for (let x = 0; x < NX; x += CHUNK) run(edits, { op: 'paint', label: 59, center: [z, y, x], radius: 6 });
    for (const { version, from, to, task } of taken)
      expect(Array.from(regionVoxels(task)), `version ${version}, ${from} to ${to}`).toEqual(cut(wholes[version]!, from, to));
  });

  it('builds a segment’s level set on an encode thread from the box the layer’s turn took, as from the box read here', async () => {
    const random = seededRandom(5);
    const { edits, wholes } = randomlyEdited(random, 8);
    const transform = voxelTransform({ type: 'volume', shape: [...SHAPE], dtype: 'uint32', data: new Uint32Array(0) } as never);
    for (let version = edits.version; version >= 0; version -= 2) {
      const present = [...new Set(Array.from(wholes[version]!))].filter((id) => id !== 0);
      const id = present[Math.floor(random() * present.length)]!;
      const box = boxOf(wholes[version]!, id);
      const [from, to] = [box.slice(0, 3), box.slice(3).map((v) => v + 1)];
      const read = regionAt(edits, version, from, to);
      const here = await runLodsTask({ op: 'meshLods', source: { kind: 'region', region: read, id, box, triangles: 0, transform } });
      const taken = edits.regionTask(version, [{ from, to }]);
      const built = await runTask(pools.encode, { op: 'meshLods', source: { kind: 'region', region: taken, id, box, triangles: 0, transform } });
      expect(Buffer.from(built.lods.packed).equals(Buffer.from(here.lods.packed)), `segment ${id} at version ${version}`).toBe(true);
    }
  });

  it('finds segments’ entries on an encode thread as a walk over the version made whole does, in memory kept between tasks', async () => {
    const random = seededRandom(29);
    const { edits, wholes } = randomlyEdited(random, 8);
    // Newest version first: the first task reads the most boxes, the later ones read into the memory it left.
    for (let version = edits.version; version >= 0; version--) {
      const whole = wholes[version]!;
      const ids = [...new Set(Array.from(whole))].filter((id) => id !== 0).slice(0, version + 2);
      // Each segment in its own box, and one id no voxel holds.
      const boxes = ids.map((id) => boxOf(whole, id)).map((b) => ({ from: b.slice(0, 3), to: b.slice(3).map((v) => v + 1) }));
      const parts = [...ids.map((id) => ({ id, boxes: 1 })), { id: 999, boxes: 1 }];
      const region = edits.regionTask(version, [...boxes, { from: [0, 0, 0], to: [2, 2, 2] }]);
      const entries = await runTask(pools.encode, { op: 'labelsEntries', region, parts });
      expect(entries, `version ${version}`).toEqual([...ids.map((id) => walk(whole, id)), null]);
    }
  });
});

/** Segment `id`'s voxels, faces (against another id or the grid's edge) and box in a whole volume, by the test's own walk. */
function walk(data: ArrayLike<number>, id: number) {
  let [count, faces] = [0, 0];
  const at = (z: number, y: number, x: number) => (z < 0 || y < 0 || x < 0 || z >= NZ || y >= NY || x >= NX ? -1 : data[(z * NY + y) * NX + x]);
  for (let z = 0; z < NZ; z++)
    for (let y = 0; y < NY; y++)
      for (let x = 0; x < NX; x++) {
        if (at(z, y, x) !== id) continue;
        count++;
        const sides = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as const;
        for (const [dz, dy, dx] of sides) if (at(z + dz, y + dy, x + dx) !== id) faces++;
      }
  return { count, faces, box: boxOf(data, id) };
}
