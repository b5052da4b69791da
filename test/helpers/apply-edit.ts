/**
 * @module apply-edit
 * An edit made on a layer in memory as the host makes one once it is kept: planned on the layer
 * as it is, then applied under a record of the next version (a log seq that only grows, by
 * `test`). For the tests of the ops, versions and regions that need no host.
 */
import type { LayerEdits } from '../../core/edits/layer-edits.ts';
import type { EditRecord, LabelEdit } from '../../core/wire/edit-types.ts';

let seq = 0;

/** Plans and applies `edit` as the layer's next version; its record. */
export function applyEdit(layer: LayerEdits, edit: LabelEdit): EditRecord {
  const planned = layer.plan(edit);
  const { segments, voxels, box } = planned;
  const record: EditRecord = { seq: ++seq, ts: 0, by: 'test', layer: 'seg', version: layer.version + 1, edit, segments, voxels, box };
  layer.apply(planned, record);
  return record;
}
