/**
 * @module names-op
 * A names edit: entries of the label tables set (or, with null, taken out). Each entry that
 * changed is kept with what it held, so an undo puts it back; no voxel changes.
 */
import type { NamesEdit } from '../wire/edit-types.ts';
import type { LabelTables } from './label-tables.ts';
import type { LabelVolume } from './label-volume.ts';
import type { OpOutcome } from './merge-op.ts';
import { ChangeList, type LabelTable } from './voxel-changes.ts';

export function namesOp(volume: LabelVolume, tables: LabelTables, edit: NamesEdit): OpOutcome {
  const list = new ChangeList();
  const ids = new Set<number>();
  for (const table of ['label_names', 'label_colors'] as LabelTable[]) {
    for (const [id, after] of Object.entries(edit[table] ?? {})) {
      const before = tables[table].get(id) ?? null;
      if (before === after) continue;
      list.tables.push({ table, id, before, after });
      if (id !== '0') ids.add(Number(id));
    }
  }
  return { changes: list.done(volume.shape), segments: { changed: [...ids].sort((a, b) => a - b), new: [] } };
}
