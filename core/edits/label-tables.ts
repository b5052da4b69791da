/**
 * @module label-tables
 * A labels layer's tables: each label's name and colour (`label_names`, `label_colors`),
 * started from the base result's and changed by `names` edits.
 */
import type { LabelTable } from './voxel-changes.ts';

export type LabelTables = Record<LabelTable, Map<string, string>>;

/** Tables from a result's (absent ones empty). */
export function tablesOf(names?: Record<string, string>, colors?: Record<string, string>): LabelTables {
  return { label_names: new Map(Object.entries(names ?? {})), label_colors: new Map(Object.entries(colors ?? {})) };
}

/** A table as JSON, ids ascending. */
export function tableJson(table: Map<string, string>): Record<string, string> {
  return Object.fromEntries([...table].sort(([a], [b]) => Number(a) - Number(b)));
}
