/**
 * @module segment-delivery
 * What `segment=` asks of a result, checked before any surface is made: the result must be a
 * labels volume of at most three dimensions, the id a whole number its dtype can hold and
 * present in the volume (its label index says so without reading the volume again), and the
 * task for an encode thread is then the surface of that one label inside its box, or of every
 * label, painted, for `all`.
 */
import { createHostError } from '../errors.ts';
import { findLabel, type LabelIndex } from '../labels/label-index.ts';
import { isLabelDType, LABEL_MAX } from '../results/label-fields.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import type { SurfaceTask } from './delivery-tasks.ts';

const misfit = (why: string) => createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', 'segment', why);

/** The labels volume a segment surface is made of. @throws SPC_ERR_DELIVERY_OPTION_MISFIT naming `segment`. */
export function segmentVolume(result: StoredResult): StoredVolume {
  if (result.type !== 'volume') throw misfit(`it asks for a label's surface, and the result is a ${result.type.replace('_', ' ')}`);
  if (!result.labels) throw misfit(`the volume is not marked as labels (labels: true, or role=labels when publishing), so it has no segments`);
  if (result.shape.length > 3 && result.shape.slice(0, -3).some((n) => n !== 1)) {
    throw misfit(`surfaces are made of 3-D labels volumes; this one has shape [${result.shape.join(', ')}]`);
  }
  return result;
}

/** A few of the ids an index holds, for an error that says what there is. */
function heldIds(index: LabelIndex): string {
  const count = index.ids.length;
  if (count === 0) return 'it is all background';
  const shown = Array.from(index.ids.subarray(0, 8)).join(', ');
  return `it holds ${count} label${count === 1 ? '' : 's'}: ${shown}${count > 8 ? ', ...' : ''}`;
}

/**
 * The task making the surface of `segment` of `volume`, carrying only the index entries it
 * needs. @throws SPC_ERR_DELIVERY_OPTION_MISFIT (an id past the dtype) or SPC_ERR_SEGMENT_NOT_FOUND.
 */
export function surfaceTask(volume: StoredVolume, index: LabelIndex, segment: number | 'all'): SurfaceTask {
  if (segment === 'all') {
    if (index.ids.length === 0) throw createHostError('SPC_ERR_SEGMENT_NOT_FOUND', 'all', heldIds(index));
    return { op: 'surface', volume, index, ids: Array.from(index.ids), painted: true };
  }
  const max = isLabelDType(volume.dtype) ? LABEL_MAX[volume.dtype] : 0;
  if (segment > max) throw misfit(`${segment} is past the largest id a ${volume.dtype} volume holds (${max})`);
  const k = findLabel(index, segment);
  if (k < 0) throw createHostError('SPC_ERR_SEGMENT_NOT_FOUND', String(segment), heldIds(index));
  const one: LabelIndex = {
    ids: index.ids.slice(k, k + 1),
    counts: index.counts.slice(k, k + 1),
    boxes: index.boxes.slice(k * 6, k * 6 + 6),
    faces: index.faces.slice(k, k + 1),
  };
  return { op: 'surface', volume, index: one, ids: [segment], painted: false };
}
