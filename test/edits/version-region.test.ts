/**
 * A box of a version read from the layer's chunks (version-region.ts), without the version made
 * whole: voxel for voxel the same box cut from the version made whole, for every version after
 * several edits (paints, a split, a merge), boxes across chunk borders included. And a changed
 * segment's level set built from its box alone is the one built from the whole version, byte for
 * byte (the same manifest, Draco and GLB fragments and table).
 */
import { describe, expect, it } from 'vitest';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import { runLodsTask } from '../../core/meshes/run-lods-task.ts';
import { voxelTransform } from '../../core/meshes/lod-sources.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { boxLabels } from '../helpers/box-labels.ts';
import { applyEdit } from '../helpers/apply-edit.ts';

const SHAPE: [number, number, number] = [21, 26, 30];
const [NZ, NY, NX] = SHAPE;
const CHUNK = 8;

const run = applyEdit;

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
        const region = edits.regionAt(version, from!, to!);
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
      const region = edits.regionAt(version, box.slice(0, 3), box.slice(3).map((v) => v + 1));
      const source = { kind: 'region' as const, region, id, box, triangles: 0, transform: voxelTransform(volume) };
      const fromRegion = await runLodsTask({ op: 'meshLods', source });
      expect(whole.lods.fragments.length).toBeGreaterThan(0);
      expect(Buffer.from(fromRegion.lods.packed).equals(Buffer.from(whole.lods.packed)), `segment ${id} at version ${version}`).toBe(true);
      expect(fromRegion.keptId).toBe(whole.keptId);
    }
  });
});
