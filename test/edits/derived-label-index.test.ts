/**
 * The label index of an edited version found from the earlier index and the region the changed
 * segments lie in (derived-label-index.ts) is the index a pass over the whole volume finds:
 * ids, counts, boxes and faces, after merges, splits, paints (erasing too) and undos, each
 * derived from the one before, and over several edits at once.
 */
import { describe, expect, it } from 'vitest';
import type { EditRecord, LabelEdit } from '../../core/wire/edit-types.ts';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { LabelVolume } from '../../core/edits/label-volume.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import { buildLabelIndex, type LabelIndex } from '../../core/labels/label-index.ts';
import { derivedLabelIndex } from '../../core/labels/derived-label-index.ts';
import { boxLabels } from '../helpers/box-labels.ts';
import { applyEdit } from '../helpers/apply-edit.ts';

const SHAPE: [number, number, number] = [14, 18, 21];
const [NZ, NY, NX] = SHAPE;
const at = (z: number, y: number, x: number) => (z * NY + y) * NX + x;

/** Boxes of ids 1..12 over background, some touching the grid's faces. */
const base = (seed: number): Uint32Array => boxLabels(SHAPE, seed, 12, [6, 7, 8]);

const run = applyEdit;

const plain = ({ ids, counts, boxes, faces }: LabelIndex) => ({
  ids: Array.from(ids),
  counts: Array.from(counts),
  boxes: Array.from(boxes),
  faces: Array.from(faces),
});

/** The index of the version after `records` derived from `from`, beside a whole pass's. */
function both(edits: LayerEdits, from: LabelIndex, records: EditRecord[]) {
  const data = versionVoxels(edits.versionTask(edits.version));
  const changed = [...new Set(records.flatMap((r) => [...r.segments.changed, ...r.segments.new]))];
  const boxes = records.flatMap((r) => (r.box ? [r.box] : []));
  return { derived: derivedLabelIndex(from, data, SHAPE, { changed, boxes }), whole: buildLabelIndex(data, SHAPE) };
}

/** The first voxel in C order of segment `id`, and the last. */
function endsOf(edits: LayerEdits, id: number): [number, number, number][][] {
  const data = versionVoxels(edits.versionTask(edits.version));
  const found: [number, number, number][] = [];
  for (let z = 0; z < NZ; z++) for (let y = 0; y < NY; y++) for (let x = 0; x < NX; x++) if (data[at(z, y, x)] === id) found.push([z, y, x]);
  return [[found[0]!], [found.at(-1)!]];
}

describe('a label index derived from the earlier one and a region', () => {
  it('is the whole pass’s index after each edit', () => {
    for (const seed of [3, 11, 29]) {
      const edits = new LayerEdits(new LabelVolume(base(seed), SHAPE, 'uint32', 8), tablesOf());
      let index = buildLabelIndex(base(seed), SHAPE);
      const present = () => Array.from(index.ids);
      const steps: (() => LabelEdit)[] = [
        () => ({ op: 'merge', segments: present().slice(0, 3) }),
        () => ({ op: 'paint', label: 40, center: [0, 0, 0], radius: 5 }),
        () => ({ op: 'paint', label: 0, center: [7, 9, 10], radius: 4 }),
        () => ({ op: 'paint', label: present()[1]!, center: [13, 17, 20], radius: 6, only: 0 }),
        () => ({ op: 'split', segment: present().at(-1)!, seeds: endsOf(edits, present().at(-1)!) }),
      ];
      const made: EditRecord[] = [];
      for (const step of steps) {
        made.push(run(edits, step()));
        const { derived, whole } = both(edits, index, made.slice(-1));
        expect(plain(derived)).toEqual(plain(whole));
        index = derived;
      }
      // Two undos at once, derived in one step.
      const undos = [run(edits, { op: 'undo', seq: made.at(-1)!.seq }), run(edits, { op: 'undo', seq: made.at(-2)!.seq })];
      const { derived, whole } = both(edits, index, undos);
      expect(plain(derived)).toEqual(plain(whole));
      expect(made.every((r) => r.voxels > 0)).toBe(true);
    }
  });
});
