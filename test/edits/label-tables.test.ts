/**
 * A version's label tables: a table the base result lacked stays absent while edits leave it
 * empty (so a version with every edit undone is the base result field for field), and is
 * carried once edits fill it; a table the base had is always carried, even emptied.
 */
import { describe, expect, it } from 'vitest';
import { tableFields, tablesOf } from '../../core/edits/label-tables.ts';

describe('label tables of a version', () => {
  it('leaves out a table the base lacked and edits left empty', () => {
    expect(tableFields(tablesOf(), {})).toEqual({});
    expect('label_names' in tableFields(tablesOf(), {})).toBe(false);
  });

  it('carries a table edits filled, ids ascending', () => {
    const tables = tablesOf({ '10': 'ten', '2': 'two' });
    expect(tableFields(tables, {})).toEqual({ label_names: { '2': 'two', '10': 'ten' } });
    expect(Object.keys(tableFields(tables, {}).label_names!)).toEqual(['2', '10']);
  });

  it('carries a table the base had, even emptied by edits', () => {
    expect(tableFields(tablesOf(), { label_colors: { '1': '#ff0000' } })).toEqual({ label_colors: {} });
  });
});
