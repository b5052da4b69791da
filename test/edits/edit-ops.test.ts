/**
 * The edit ops on small chunked volumes, each expected voxel computed here with the test's own
 * code: a split's groups by a distance relaxation per group (not a shared breadth-first queue),
 * merges and paints by walking every voxel, undo's conflict rule by the voxels edits share.
 */
import { describe, expect, it } from 'vitest';
import { checkEdit } from '../../core/edits/check-edit.ts';
import type { ClientEdit, Voxel } from '../../core/wire/edit-types.ts';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { splitOp } from '../../core/edits/split-op.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import { isHostError } from '../../core/errors.ts';
import { boxLabels } from '../helpers/box-labels.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { applyEdit } from '../helpers/apply-edit.ts';

const SHAPE: [number, number, number] = [6, 9, 11];
const [NZ, NY, NX] = SHAPE;
const at = (z: number, y: number, x: number) => (z * NY + y) * NX + x;

/** A volume of blobs: a few boxes of ids over background, with a snake of id 7 winding through. */
function blobs(seed: number): Uint32Array {
  const data = boxLabels(SHAPE, seed, 6, [3, 5, 6]);
  for (let z = 0; z < NZ; z++) for (let x = 0; x < NX; x++) data[at(z, (z * 3 + x) % NY, x)] = 7;
  return data;
}

function layerOf(data: Uint32Array, chunk = 4): LayerEdits {
  return new LayerEdits(new LabelVolume(data.slice(), SHAPE, 'uint32', chunk), tablesOf());
}

/** The volume's voxels now, made whole as a version is. */
const voxelsNow = (volume: LabelVolume) => versionVoxels({ op: 'labelsVersion', volume: volume.freeze(), later: [] });

const run = applyEdit;

function refusal(work: () => unknown): { code: string; message: string } {
  try {
    work();
  } catch (error) {
    if (isHostError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

/** The test's own split: each group's distances by relaxing until nothing changes, then the nearest group (the lower on a tie). */
function expectedSplit(data: Uint32Array, a: number, seeds: Voxel[][], firstNew: number): Uint32Array {
  const out = data.slice();
  const dist = seeds.map((group) => {
    const d = new Float64Array(data.length).fill(Infinity);
    for (const [z, y, x] of group) d[at(z, y, x)] = 0;
    for (let changed = true; changed; ) {
      changed = false;
      for (let z = 0; z < NZ; z++)
        for (let y = 0; y < NY; y++)
          for (let x = 0; x < NX; x++) {
            const i = at(z, y, x);
            if (data[i] !== a) continue;
            for (const [dz, dy, dx] of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as const) {
              const [zz, yy, xx] = [z + dz, y + dy, x + dx];
              if (zz < 0 || yy < 0 || xx < 0 || zz >= NZ || yy >= NY || xx >= NX || data[at(zz, yy, xx)] !== a) continue;
              if (d[at(zz, yy, xx)]! + 1 < d[i]!) {
                d[i] = d[at(zz, yy, xx)]! + 1;
                changed = true;
              }
            }
          }
    }
    return d;
  });
  for (let i = 0; i < data.length; i++) {
    if (data[i] !== a) continue;
    let best = -1;
    for (let g = 0; g < seeds.length; g++) if (dist[g]![i]! < Infinity && (best < 0 || dist[g]![i]! < dist[best]![i]!)) best = g;
    if (best > 0) out[i] = firstNew + best - 1;
  }
  return out;
}

/** Voxels of `id` in `data`, as [z, y, x]. */
function voxelsOf(data: Uint32Array, id: number): Voxel[] {
  const found: Voxel[] = [];
  for (let z = 0; z < NZ; z++) for (let y = 0; y < NY; y++) for (let x = 0; x < NX; x++) if (data[at(z, y, x)] === id) found.push([z, y, x]);
  return found;
}

describe('edit ops', () => {
  it('splits by the nearest seed group, ties to the lower group, fresh ids past the largest ever held', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const data = blobs(seed);
      const rand = seededRandom(seed * 31);
      const a = 7;
      const own = voxelsOf(data, a);
      const groups = 2 + (seed % 3);
      const pick = () => own[Math.floor(rand() * own.length)]!;
      const seeds: Voxel[][] = Array.from({ length: groups }, () => Array.from({ length: 1 + Math.floor(rand() * 3) }, pick));
      const layer = layerOf(data);
      const record = run(layer, { op: 'split', segment: a, seeds });
      const expected = expectedSplit(data, a, seeds, 8);
      expect(Array.from(voxelsNow(layer.volume))).toEqual(Array.from(expected));
      expect(record.segments.changed).toEqual([a]);
      expect(record.segments.new).toEqual([...new Set(Array.from(expected).filter((v) => v >= 8))].sort((p, q) => p - q));
    }
  });

  it('splits the same with a map of claimed voxels, as a segment whose box is too large for flat arrays', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const data = blobs(seed);
      const rand = seededRandom(seed * 17);
      const own = voxelsOf(data, 7);
      const seeds: Voxel[][] = Array.from({ length: 2 + (seed % 2) }, () => [own[Math.floor(rand() * own.length)]!]);
      const { changes } = splitOp(new LabelVolume(data.slice(), SHAPE, 'uint32', 4), { op: 'split', segment: 7, seeds }, 0);
      const out = data.slice();
      changes.index.forEach((i, k) => (out[i] = changes.after[k]!));
      expect(Array.from(out)).toEqual(Array.from(expectedSplit(data, 7, seeds, 8)));
    }
  });

  it('gives voxels no seed reaches back to the segment, and new ids past ids held before', () => {
    const data = new Uint32Array(NZ * NY * NX);
    // Two pieces of segment 3, apart; id 20 held once and painted over: new ids go past it.
    for (let x = 0; x < 4; x++) data[at(0, 0, x)] = 3;
    for (let x = 6; x < 9; x++) data[at(5, 8, x)] = 3;
    data[at(2, 2, 2)] = 20;
    const layer = layerOf(data);
    run(layer, { op: 'paint', label: 0, voxels: [[2, 2, 2]] });
    const record = run(layer, { op: 'split', segment: 3, seeds: [[[0, 0, 0]], [[0, 0, 3]]] });
    const out = voxelsNow(layer.volume);
    expect([0, 1, 2, 3].map((x) => out[at(0, 0, x)])).toEqual([3, 3, 21, 21]);
    expect([6, 7, 8].map((x) => out[at(5, 8, x)])).toEqual([3, 3, 3]);
    expect(record.segments.new).toEqual([21]);
  });

  it('merges every listed segment into the first', () => {
    const data = blobs(5);
    const layer = layerOf(data);
    const [b, c] = [1, 2, 3, 4, 5, 6].filter((id) => data.includes(id));
    const record = run(layer, { op: 'merge', segments: [7, b!, c!] });
    const expected = Array.from(data, (v) => (v === b || v === c ? 7 : v));
    expect(Array.from(voxelsNow(layer.volume))).toEqual(expected);
    expect(record.voxels).toBe(data.filter((v) => v === b || v === c).length);
  });

  it('paints a ball (distance ≤ r, cut at the grid), only over one label, and erases', () => {
    const data = blobs(9);
    for (const [center, radius, only, label] of [
      [[3, 4, 5], 2.5, undefined, 9],
      [[0, 0, 0], 3, 7, 12],
      [[5, 8, 10], 4, undefined, 0],
      [[2, 2, 2], 0, undefined, 5],
    ] as [Voxel, number, number | undefined, number][]) {
      const layer = layerOf(data);
      const edit: ClientEdit = only === undefined ? { op: 'paint', label, center, radius } : { op: 'paint', label, center, radius, only };
      run(layer, edit);
      const expected = Array.from(data, (v, i) => {
        const [z, y, x] = [Math.floor(i / (NY * NX)), Math.floor(i / NX) % NY, i % NX];
        const inBall = (z - center[0]) ** 2 + (y - center[1]) ** 2 + (x - center[2]) ** 2 <= radius * radius;
        return inBall && (only === undefined || v === only) ? label : v;
      });
      expect(Array.from(voxelsNow(layer.volume))).toEqual(expected);
    }
  });

  it('sets and removes label table entries, and undoes them', () => {
    const layer = new LayerEdits(new LabelVolume(blobs(2), SHAPE, 'uint32', 4), tablesOf({ '1': 'one' }, { '1': '#ff0000' }));
    const names = run(layer, { op: 'names', label_names: { '1': null, '2': 'two' }, label_colors: { '1': '#00ff00' } });
    expect(Object.fromEntries(layer.tables.label_names)).toEqual({ '2': 'two' });
    expect(Object.fromEntries(layer.tables.label_colors)).toEqual({ '1': '#00ff00' });
    expect(names.segments.changed).toEqual([1, 2]);
    run(layer, { op: 'undo', seq: names.seq });
    expect(Object.fromEntries(layer.tables.label_names)).toEqual({ '1': 'one' });
    expect(Object.fromEntries(layer.tables.label_colors)).toEqual({ '1': '#ff0000' });
  });

  it('writes only the chunks an edit changed', () => {
    const layer = layerOf(new Uint32Array(NZ * NY * NX));
    run(layer, { op: 'paint', label: 3, voxels: [[0, 0, 0], [5, 8, 10]] });
    expect(layer.volume.ownChunks).toBe(2);
  });

  it('undoes newest first: an undo refused while a later edit in effect changed its voxels, naming it', () => {
    const data = blobs(3);
    const layer = layerOf(data);
    const first = run(layer, { op: 'paint', label: 30, center: [3, 4, 5], radius: 2 });
    const second = run(layer, { op: 'paint', label: 31, center: [3, 4, 6], radius: 1 });
    const apart = run(layer, { op: 'paint', label: 32, voxels: [[0, 8, 0]] });
    const refused = refusal(() => layer.plan({ op: 'undo', seq: first.seq }));
    expect(refused.code).toBe('SPC_ERR_EDIT_CONFLICT');
    expect(refused.message).toContain(String(second.seq));
    expect(refused.message).not.toContain(`${apart.seq})`);
    const undoSecond = run(layer, { op: 'undo', seq: second.seq });
    // The undone edit and its undo count as neither: the first may go now.
    run(layer, { op: 'undo', seq: first.seq });
    run(layer, { op: 'undo', seq: apart.seq });
    expect(Array.from(voxelsNow(layer.volume))).toEqual(Array.from(data));
    expect(refusal(() => layer.plan({ op: 'undo', seq: first.seq })).code).toBe('SPC_ERR_EDIT_UNDONE');
    // Redo of the first, then undoing the undo of the second (a redo): the second lies over the first again.
    run(layer, { op: 'redo', seq: first.seq });
    run(layer, { op: 'undo', seq: undoSecond.seq });
    const listed = layer.list(0, 100);
    expect(listed.find((e) => e.seq === second.seq)?.undone_by).toBeUndefined();
    expect(listed.find((e) => e.seq === apart.seq)?.undone_by).toBeGreaterThan(apart.seq);
    expect(refusal(() => layer.plan({ op: 'undo', seq: first.seq })).code).toBe('SPC_ERR_EDIT_CONFLICT');
  });

  it('answers any version: every later edit written back', () => {
    const data = blobs(4);
    const layer = layerOf(data);
    run(layer, { op: 'merge', segments: [1, 2] });
    const afterOne = voxelsNow(layer.volume);
    run(layer, { op: 'paint', label: 0, center: [2, 2, 2], radius: 3 });
    expect(Array.from(versionVoxels(layer.versionTask(0)))).toEqual(Array.from(data));
    expect(Array.from(versionVoxels(layer.versionTask(1)))).toEqual(Array.from(afterOne));
  });

  it('keeps a frozen view as it was while later edits write its chunks (copy on write)', () => {
    const data = blobs(5);
    const layer = layerOf(data);
    run(layer, { op: 'paint', label: 9, center: [2, 4, 5], radius: 2 });
    const task = layer.versionTask(1);
    const afterOne = versionVoxels(task);
    // Later edits write the same chunks again (and new ones), after the view was taken.
    run(layer, { op: 'paint', label: 3, center: [2, 4, 5], radius: 3 });
    run(layer, { op: 'merge', segments: [7, 3] });
    expect(Array.from(versionVoxels(task))).toEqual(Array.from(afterOne));
    const expected = data.slice();
    for (let z = 0; z < NZ; z++)
      for (let y = 0; y < NY; y++) for (let x = 0; x < NX; x++) if ((z - 2) ** 2 + (y - 4) ** 2 + (x - 5) ** 2 <= 4) expected[at(z, y, x)] = 9;
    expect(Array.from(afterOne)).toEqual(Array.from(expected));
    expect(afterOne.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('edit checks', () => {
  const grid = { shape: SHAPE, dtype: 'uint8' as const };
  const field = (body: unknown) => {
    const r = refusal(() => checkEdit(body, grid));
    expect(r.code).toBe('SPC_ERR_EDIT_INVALID');
    return r.message;
  };

  it('names the field that does not check', () => {
    expect(field({ op: 'smudge' })).toContain('op');
    expect(field({ op: 'paint', label: 1, center: [6, 0, 0], radius: 1 })).toContain('center');
    expect(field({ op: 'paint', label: 256, center: [0, 0, 0], radius: 1 })).toContain('label');
    expect(field({ op: 'paint', label: 1, center: [0, 0, 0], radius: 65 })).toContain('radius');
    expect(field({ op: 'paint', label: 1, voxels: Array.from({ length: 100_001 }, () => [0, 0, 0]) })).toContain('voxels');
    expect(field({ op: 'paint', label: 1, voxels: [[0, 0, 0], [0, 9, 0]] })).toContain('voxels[1]');
    expect(field({ op: 'merge', segments: [1] })).toContain('segments');
    expect(field({ op: 'merge', segments: Array.from({ length: 1001 }, (_, i) => i + 1) })).toContain('segments');
    expect(field({ op: 'split', segment: 1, seeds: [[[0, 0, 0]]] })).toContain('seeds');
    expect(field({ op: 'split', segment: 1, seeds: [[[0, 0, 0]], []] })).toContain('seeds[1]');
    expect(field({ op: 'split', segment: 1, seeds: Array.from({ length: 17 }, () => [[0, 0, 0]]) })).toContain('seeds');
    expect(field({ op: 'names', label_colors: { '3': 'red' } })).toContain('label_colors.3');
  });

  it('refuses a seed outside its segment and a merged id not present', () => {
    const layer = layerOf(blobs(6));
    const outside = voxelsOf(blobs(6), 0)[0]!;
    const seedRefusal = refusal(() => layer.plan({ op: 'split', segment: 7, seeds: [[voxelsOf(blobs(6), 7)[0]!], [outside]] }));
    expect(seedRefusal.message).toContain('seeds[1][0]');
    expect(refusal(() => layer.plan({ op: 'merge', segments: [7, 99] })).message).toContain('segments[1]');
  });
});
