/**
 * Edits applied ahead of their records, on small chunked volumes: while records come in order
 * the layer ends as one that applied each edit under its record; taken back (a record refused),
 * the voxels, the label tables, the largest id ever held and the version are what they were
 * before the first edit ahead, so the same edits planned again (a split's fresh ids come from
 * that largest id) give what a host applying their records from scratch gives. Readers stop at
 * the kept version: the list and the records. Kept by their layer's chain, the edits that come
 * while a write is under way go together in the next write.
 */
import { describe, expect, it } from 'vitest';
import type { EditDraft } from '../../core/edits/edit-store.ts';
import { EditsAhead } from '../../core/edits/service/edits-ahead.ts';
import { LayerEdits, type PlannedEdit } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import type { EditRecord, LabelEdit, Voxel } from '../../core/wire/edit-types.ts';
import { boxLabels } from '../helpers/box-labels.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const SHAPE: [number, number, number] = [8, 10, 12];
const at = (z: number, y: number, x: number) => (z * SHAPE[1] + y) * SHAPE[2] + x;

const layerOf = (data: Uint32Array) => new LayerEdits(new LabelVolume(data.slice(), SHAPE, 'uint32', 4), tablesOf());
const voxelsNow = (layer: LayerEdits) => Array.from(versionVoxels({ op: 'labelsVersion', volume: layer.volume.freeze(), later: [] }));
const tablesNow = (layer: LayerEdits) => JSON.stringify([[...layer.tables.label_names], [...layer.tables.label_colors]]);

let seq = 0;
const recordOf = (planned: PlannedEdit, version: number): EditRecord => {
  const { edit, segments, voxels, box } = planned;
  return { seq: ++seq, ts: 0, by: 'test', layer: 'seg', version, edit, segments, voxels, box };
};

/** Voxels of segment `id` now, as [z, y, x]. */
function voxelsOf(layer: LayerEdits, id: number): Voxel[] {
  const out: Voxel[] = [];
  const data = voxelsNow(layer);
  for (let i = 0; i < data.length; i++)
    if (data[i] === id) out.push([Math.floor(i / (SHAPE[1] * SHAPE[2])), Math.floor(i / SHAPE[2]) % SHAPE[1], i % SHAPE[2]]);
  return out;
}

/** A random edit valid on the layer as it is: a paint, a merge, a split of a segment at two of its voxels, or names. */
function randomEdit(layer: LayerEdits, rand: () => number): LabelEdit {
  const ids = [...new Set(voxelsNow(layer))].filter((id) => id !== 0).sort((a, b) => a - b);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const kind = rand();
  if (kind < 0.3 || ids.length < 2) {
    const center: Voxel = [Math.floor(rand() * SHAPE[0]), Math.floor(rand() * SHAPE[1]), Math.floor(rand() * SHAPE[2])];
    return { op: 'paint', label: rand() < 0.2 ? 0 : pick(ids.length ? ids : [3]), center, radius: 1 + Math.floor(rand() * 3) };
  }
  if (kind < 0.5) return { op: 'merge', segments: [pick(ids), pick(ids.filter((id) => id !== ids[0]))].filter((v, k, a) => a.indexOf(v) === k) };
  if (kind < 0.9) {
    const id = pick(ids);
    const own = voxelsOf(layer, id);
    if (own.length >= 2) return { op: 'split', segment: id, seeds: [[own[0]!], [own[own.length - 1]!]] };
  }
  return { op: 'names', label_names: { [String(pick(ids))]: `n${Math.floor(rand() * 100)}` } };
}

describe('edits applied ahead of their records', () => {
  it('taken back, leave voxels, tables and the largest id as they were; planned again they give what records applied give', () => {
    for (let round = 0; round < 12; round++) {
      const rand = seededRandom(100 + round);
      const base = boxLabels(SHAPE, round + 1, 5, [3, 4, 5]);
      const layer = layerOf(base);
      // Some edits kept, then some ahead.
      const edits: LabelEdit[] = [];
      for (let k = 0; k < 3; k++) {
        const edit = randomEdit(layer, rand);
        const planned = layer.plan(edit);
        layer.apply(planned, recordOf(planned, layer.version + 1));
        edits.push(edit);
      }
      const [voxels, tables, maxEver, kept] = [voxelsNow(layer), tablesNow(layer), layer.volume.maxEver, layer.keptVersion];
      const planAhead = () => {
        const ahead: PlannedEdit[] = [];
        for (let k = 0; k < 4; k++) {
          const planned = layer.plan(randomEdit(layer, rand));
          layer.ahead(planned);
          ahead.push(planned);
        }
        return ahead;
      };
      // All taken back: as before the first edit ahead.
      planAhead();
      expect(layer.retract()).toBe(4);
      expect([voxelsNow(layer), tablesNow(layer), layer.volume.maxEver, layer.version]).toEqual([voxels, tables, maxEver, kept]);
      const ahead = planAhead();
      expect(layer.version).toBe(kept + 4);
      expect(layer.keptVersion).toBe(kept);
      expect(layer.recordAt(kept + 1)).toBeUndefined();
      expect(layer.summaryAt(kept + 1)).toMatchObject({ voxels: ahead[0]!.voxels });
      expect(layer.list(0, 100)).toHaveLength(kept);
      // The first record comes; the next is refused: the rest are taken back.
      layer.kept(recordOf(ahead[0]!, kept + 1));
      expect(layer.list(0, 100)).toHaveLength(kept + 1);
      expect(layer.retract()).toBe(3);
      expect(layer.version).toBe(kept + 1);
      // A host applying the records from scratch, then the three planned again on both.
      const again = layerOf(base);
      for (const edit of [...edits, ahead[0]!.edit]) {
        const planned = again.plan(edit);
        again.apply(planned, recordOf(planned, again.version + 1));
      }
      expect([voxelsNow(layer), tablesNow(layer), layer.volume.maxEver]).toEqual([voxelsNow(again), tablesNow(again), again.volume.maxEver]);
      for (const { edit } of ahead.slice(1)) {
        const [mine, theirs] = [layer.plan(edit), again.plan(edit)];
        layer.ahead(mine);
        layer.kept(recordOf(mine, layer.version));
        again.apply(theirs, recordOf(theirs, again.version + 1));
        expect(mine.segments).toEqual(theirs.segments);
      }
      expect([voxelsNow(layer), tablesNow(layer), layer.volume.maxEver]).toEqual([voxelsNow(again), tablesNow(again), again.volume.maxEver]);
    }
  });

  it('taken back whole, a split ahead gives its fresh ids back to the next split', () => {
    const base = new Uint32Array(SHAPE[0] * SHAPE[1] * SHAPE[2]);
    for (let x = 0; x < SHAPE[2]; x++) base[at(2, 2, x)] = 5;
    const layer = layerOf(base);
    const split: LabelEdit = { op: 'split', segment: 5, seeds: [[[2, 2, 0]], [[2, 2, 11]]] };
    const first = layer.plan(split);
    expect(first.segments.new).toEqual([6]);
    layer.ahead(first);
    expect(layer.volume.maxEver).toBe(6);
    layer.retract();
    expect(layer.volume.maxEver).toBe(5);
    expect(voxelsNow(layer)).toEqual(Array.from(base));
    expect(layer.plan(split).segments.new).toEqual([6]);
  });

  it('never applies an undo or redo ahead, and applies a record only with nothing ahead', () => {
    const layer = layerOf(boxLabels(SHAPE, 3, 4, [3, 4, 5]));
    const paint = layer.plan({ op: 'paint', label: 9, center: [1, 1, 1], radius: 1 });
    layer.apply(paint, recordOf(paint, 1));
    const undo = layer.plan({ op: 'undo', seq });
    expect(() => layer.ahead(undo)).toThrow(/never applied ahead/);
    const next = layer.plan({ op: 'paint', label: 8, center: [4, 4, 4], radius: 1 });
    layer.ahead(next);
    const more = layer.plan({ op: 'paint', label: 7, center: [6, 6, 6], radius: 1 });
    expect(() => layer.apply(more, recordOf(more, 3))).toThrow(/ahead/);
    expect(() => layer.kept(recordOf(next, 3))).toThrow(/version 3/);
    layer.kept(recordOf(next, 2));
    expect(layer.keptVersion).toBe(2);
  });
});

describe('edits ahead kept by their layer, a write at a time', () => {
  /** An append the test answers by hand: each call waits until the test settles it. */
  function heldAppends() {
    const calls: { expected: number; drafts: EditDraft[]; settle: (records: EditRecord[] | null | Error) => void }[] = [];
    const append = (expected: number, drafts: EditDraft[]): Promise<EditRecord[] | null> =>
      new Promise((resolve, reject) => calls.push({ expected, drafts, settle: (r) => (r instanceof Error ? reject(r) : resolve(r)) }));
    const recordsOf = (call: (typeof calls)[number]) =>
      call.drafts.map((d, k) => ({ seq: ++seq, ts: 0, by: d.by ?? 'test', layer: 'seg', version: call.expected + 1 + k, ...d }));
    return { calls, append, recordsOf };
  }
  const paintAt = (layer: LayerEdits, x: number) => layer.plan({ op: 'paint', label: 20 + x, center: [1, 1, x], radius: 0 });
  const draftOf = ({ edit, segments, voxels, box }: PlannedEdit): EditDraft => ({ edit, segments, voxels, box });
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('keeps the edits that came while a write was under way together in the next write, in order', async () => {
    const layer = layerOf(boxLabels(SHAPE, 3, 4, [3, 4, 5]));
    const { calls, append, recordsOf } = heldAppends();
    let told = 0;
    const ahead = new EditsAhead({ append: (_layer, expected, drafts) => append(expected, drafts), kept: () => told++ });
    const keep = (x: number) => {
      const planned = paintAt(layer, x);
      return ahead.keep('k', 'seg', layer, planned, draftOf(planned));
    };
    const answers = [keep(0), keep(1), keep(2), keep(3)];
    await tick();
    // The first went alone; the three after it wait for it, and go in one write.
    expect(calls.map((c) => [c.expected, c.drafts.length])).toEqual([[0, 1]]);
    calls[0]!.settle(recordsOf(calls[0]!));
    await tick();
    expect(calls.map((c) => [c.expected, c.drafts.length])).toEqual([[0, 1], [1, 3]]);
    expect(layer.keptVersion).toBe(1);
    calls[1]!.settle(recordsOf(calls[1]!));
    expect((await Promise.all(answers)).map((r) => r!.version)).toEqual([1, 2, 3, 4]);
    expect([layer.keptVersion, layer.version, told]).toEqual([4, 4, 4]);
    await ahead.settled('k');
  });

  it('refused, takes back the write and every edit waiting on it; failed, rejects the write with its fault', async () => {
    const layer = layerOf(boxLabels(SHAPE, 3, 4, [3, 4, 5]));
    const before = voxelsNow(layer);
    const { calls, append, recordsOf } = heldAppends();
    const ahead = new EditsAhead({ append: (_layer, expected, drafts) => append(expected, drafts), kept: () => {} });
    const keep = (x: number) => {
      const planned = paintAt(layer, x);
      return ahead.keep('k', 'seg', layer, planned, draftOf(planned));
    };
    const [first, second] = [keep(0), keep(1)];
    await tick();
    calls[0]!.settle(null);
    expect([await first, await second]).toEqual([null, null]);
    await ahead.settled('k');
    expect([layer.version, layer.keptVersion, calls.length]).toEqual([0, 0, 1]);
    expect(voxelsNow(layer)).toEqual(before);
    // Planned again on the layer as it was: kept, then a fault in the next write.
    const again = keep(0);
    await tick();
    calls[1]!.settle(recordsOf(calls[1]!));
    expect(await again).toMatchObject({ version: 1 });
    const [faulty, waiting] = [keep(1), keep(2)];
    await tick();
    calls[2]!.settle(new Error('the disk is gone'));
    await expect(faulty).rejects.toThrow('the disk is gone');
    expect(await waiting).toBeNull();
    expect([layer.version, layer.keptVersion]).toEqual([1, 1]);
  });
});
