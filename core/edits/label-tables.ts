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

/**
 * The tables as a version's result carries them: each one the base result had, or that edits
 * filled; a table the base lacked and that is still empty stays absent, so a version whose
 * edits were all undone is the base result field for field.
 */
type TableFields = Partial<Record<LabelTable, Record<string, string>>>;

export function tableFields(tables: LabelTables, base: TableFields): TableFields {
  const out: TableFields = {};
  for (const table of ['label_names', 'label_colors'] as const) if (base[table] !== undefined || tables[table].size > 0) out[table] = tableJson(tables[table]);
  return out;
}
