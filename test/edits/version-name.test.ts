/**
 * A version's id worked out from what differs from its base (version-name.ts): the same voxels
 * reached from the same base by other edits have the same id, a chunk with other voxels gives
 * another, undoing every edit gives the base's id back, and an earlier version's id worked out
 * later is the one it had when it was current. The chunks that differ are found here with the
 * test's own walk over every voxel, not the volume's bookkeeping.
 */
import { describe, expect, it } from 'vitest';
import type { EditRecord, LabelEdit, Voxel } from '../../core/wire/edit-types.ts';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tableFields, tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { ChunkDigests, versionName } from '../../core/edits/version-name.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import { boxLabels } from '../helpers/box-labels.ts';
import { applyEdit } from '../helpers/apply-edit.ts';

const SHAPE: [number, number, number] = [13, 17, 19];
const [NZ, NY, NX] = SHAPE;
const CHUNK = 8;
const BASE_ID = 'b'.repeat(64);
const at = (z: number, y: number, x: number) => (z * NY + y) * NX + x;

/** Boxes of ids 1..9 scattered over background. */
const base = (): Uint32Array => boxLabels(SHAPE, 87, 9, [5, 6, 7]);

/** A layer over the base, with the digests of its chunks, as the host keeps one. */
function layer(): { edits: LayerEdits; digests: ChunkDigests } {
  const volume = new LabelVolume(base(), SHAPE, 'uint32', CHUNK);
  return { edits: new LayerEdits(volume, tablesOf()), digests: new ChunkDigests(volume) };
}

const run = ({ edits }: { edits: LayerEdits }, edit: LabelEdit): EditRecord => applyEdit(edits, edit);

/** The id of version `version` (absent: the current one), as the host names it. */
function idOf({ edits, digests }: { edits: LayerEdits; digests: ChunkDigests }, version = edits.version): string {
  const tables = JSON.stringify(tableFields(edits.tablesAt(version), {}));
  const baseTables = JSON.stringify(tableFields(tablesOf(), {}));
  return versionName(BASE_ID, tables === baseTables ? null : tables, digests.differing(edits.laterWrites(version)));
}

/** The voxels of a version, made whole. */
const voxelsOf = ({ edits }: { edits: LayerEdits }, version = edits.version) => Array.from(versionVoxels(edits.versionTask(version)));

/** The chunks (by key, C order of chunks) in which two volumes differ, found voxel by voxel. */
function chunksDiffering(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const [gy, gx] = [Math.ceil(NY / CHUNK), Math.ceil(NX / CHUNK)];
  const keys = new Set<number>();
  for (let z = 0; z < NZ; z++)
    for (let y = 0; y < NY; y++)
      for (let x = 0; x < NX; x++)
        if (a[at(z, y, x)] !== b[at(z, y, x)]) keys.add((Math.floor(z / CHUNK) * gy + Math.floor(y / CHUNK)) * gx + Math.floor(x / CHUNK));
  return [...keys].sort((p, q) => p - q);
}

describe('a version named from the chunks that differ from its base', () => {
  it('names the same voxels reached by other edits alike, and other voxels otherwise', () => {
    const first = layer();
    run(first, { op: 'merge', segments: [1, 2] });
    run(first, { op: 'paint', label: 5, center: [6, 8, 9], radius: 3 });
    // The same voxels by other edits: segment 2's voxels painted 1 one by one, the ball first.
    const voxelsOfTwo: Voxel[] = [];
    const data = base();
    for (let z = 0; z < NZ; z++) for (let y = 0; y < NY; y++) for (let x = 0; x < NX; x++) if (data[at(z, y, x)] === 2) voxelsOfTwo.push([z, y, x]);
    const second = layer();
    run(second, { op: 'paint', label: 5, center: [6, 8, 9], radius: 3 });
    const ball = voxelsOf(second);
    const stillTwo = voxelsOfTwo.filter(([z, y, x]) => ball[at(z, y, x)] === 2);
    run(second, { op: 'paint', label: 1, voxels: stillTwo });
    expect(voxelsOf(second)).toEqual(voxelsOf(first));
    expect(chunksDiffering(voxelsOf(first), base()).length).toBeGreaterThan(0);
    expect(idOf(second)).toBe(idOf(first));
    expect(idOf(first)).not.toBe(BASE_ID);
    expect(idOf(first)).toMatch(/^[0-9a-f]{64}$/);

    // One voxel more in one chunk: another id; written back to what it held, the same again.
    const before = voxelsOf(second)[at(0, 0, 0)]!;
    run(second, { op: 'paint', label: before === 4 ? 3 : 4, voxels: [[0, 0, 0]] });
    expect(chunksDiffering(voxelsOf(second), voxelsOf(first))).toEqual([0]);
    expect(idOf(second)).not.toBe(idOf(first));
    run(second, { op: 'paint', label: before, voxels: [[0, 0, 0]] });
    expect(idOf(second)).toBe(idOf(first));
    // Another base under the same voxels is another version.
    const { edits, digests } = first;
    expect(versionName('c'.repeat(64), null, digests.differing(edits.laterWrites(edits.version)))).not.toBe(idOf(first));
  });

  it('names an earlier version later as it was named when current', () => {
    const one = layer();
    const named: string[] = [idOf(one)];
    const made = [run(one, { op: 'merge', segments: [3, 4] })];
    named.push(idOf(one));
    made.push(run(one, { op: 'paint', label: 7, center: [2, 3, 4], radius: 4 }));
    named.push(idOf(one));
    made.push(run(one, { op: 'split', segment: 3, seeds: firstAndLastOf(one, 3) }));
    named.push(idOf(one));
    expect(made.every((record) => record.voxels > 0)).toBe(true);
    expect(new Set(named).size).toBe(4);
    expect(named.map((_, v) => idOf(one, v))).toEqual(named);
    // A fresh layer brought to version 2 by the same edits has version 2's id.
    const other = layer();
    run(other, { op: 'merge', segments: [3, 4] });
    run(other, { op: 'paint', label: 7, center: [2, 3, 4], radius: 4 });
    expect(idOf(other)).toBe(named[2]);
  });

  it("gives the base's id back once every edit is undone, tables and voxels alike", () => {
    const one = layer();
    const edits = [
      run(one, { op: 'merge', segments: [6, 7, 8] }),
      run(one, { op: 'names', label_names: { '6': 'six' }, label_colors: {} }),
      run(one, { op: 'paint', label: 9, center: [10, 12, 14], radius: 5 }),
    ];
    expect(idOf(one)).not.toBe(BASE_ID);
    run(one, { op: 'undo', seq: edits[2]!.seq });
    run(one, { op: 'undo', seq: edits[1]!.seq });
    // Only the names differ now: a version of its own.
    const merged = idOf(one, 1);
    expect(idOf(one)).toBe(merged);
    run(one, { op: 'undo', seq: edits[0]!.seq });
    expect(chunksDiffering(voxelsOf(one), base())).toEqual([]);
    expect(idOf(one)).toBe(BASE_ID);
    expect(idOf(one, 0)).toBe(BASE_ID);
    // A names edit alone changes no chunk, yet it is not the base.
    run(one, { op: 'names', label_names: { '9': 'nine' }, label_colors: {} });
    expect(idOf(one)).not.toBe(BASE_ID);
  });
});

/** Two seeds of segment `id`: its first and last voxel in C order. */
function firstAndLastOf({ edits }: { edits: LayerEdits }, id: number): Voxel[][] {
  const data = versionVoxels(edits.versionTask(edits.version));
  const found: Voxel[] = [];
  for (let z = 0; z < NZ; z++) for (let y = 0; y < NY; y++) for (let x = 0; x < NX; x++) if (data[at(z, y, x)] === id) found.push([z, y, x]);
  return [[found[0]!], [found.at(-1)!]];
}
