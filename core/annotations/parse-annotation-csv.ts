/**
 * @module parse-annotation-csv
 * Annotations imported from CSV (`POST .../annotations` with `text/csv`), in the shape the
 * export writes: a header row naming the columns (any order, any case), then one row per
 * point. `x`, `y` and `z` are required; `kind` defaults to `point`. Rows with the same `id`
 * make one annotation (its points in `point` order when that column is there, else in row
 * order); a row without an id is an annotation of its own. The first non-empty `label`,
 * `layer`, `color` and `author` of a group are the annotation's; every other column is a
 * property (a number when it reads as one), except `length`, `volume`, `version`, `created`,
 * `updated` and the units (`unit`, `length_unit`, `volume_unit`), which the host works out
 * itself. The ids only group rows: the host makes new ones.
 * Every failure is a 400 naming the line (`CSV line 7: x must be a finite number, got 'abc'`).
 */
import { createHostError, isHostError } from '../errors.ts';
import type { AnnotationInput } from '../wire/scene-types.ts';
import { checkDraft } from './check-annotation.ts';
import { parseCsvRecords, CsvSyntaxError, type CsvRecord } from './csv-records.ts';
import { UNIT_FIELDS } from './mark-units.ts';
import { rethrown } from '../results/rethrown.ts';

const IGNORED = new Set<string>(['length', 'volume', 'version', 'created', 'updated', ...UNIT_FIELDS]);
const FIRST_OF_GROUP = ['label', 'layer', 'color', 'author'] as const;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

const bad = (line: number, why: string) => createHostError('SPC_ERR_ANNOTATION_CSV', String(line), why);

interface Group {
  line: number;
  id: string;
  rows: { record: CsvRecord; order: number }[];
}

function readNumber(raw: string, column: string, line: number): number {
  const number = Number(raw.trim());
  if (!NUMBER.test(raw.trim()) || !Number.isFinite(number)) throw bad(line, `${column} must be a finite number, got ${JSON.stringify(raw)}`);
  return number;
}

/** The columns of the header row, by name. */
function columnsOf(header: CsvRecord): Map<string, number> {
  const columns = new Map<string, number>();
  header.fields.forEach((name, index) => {
    const key = name.trim().toLowerCase();
    if (key === '') return;
    if (columns.has(key)) throw bad(header.line, `the column '${key}' appears twice in the header`);
    columns.set(key, index);
  });
  for (const axis of ['x', 'y', 'z'])
    if (!columns.has(axis))
      throw bad(
        header.line,
        `the header row names no '${axis}' column (it needs x, y and z; also id, kind, label, layer, point, color, author, and properties)`,
      );
  return columns;
}

/** The annotation a group of rows makes, as a client would have sent it. */
function draftOf(group: Group, columns: Map<string, number>, header: CsvRecord): Record<string, unknown> {
  const cell = (record: CsvRecord, name: string): string => {
    const at = columns.get(name);
    return at === undefined ? '' : (record.fields[at] ?? '');
  };
  const first = (name: string): string | undefined => group.rows.map((r) => cell(r.record, name).trim()).find((v) => v !== '');
  const kinds = new Set(group.rows.map((r) => cell(r.record, 'kind').trim()).filter((v) => v !== ''));
  if (kinds.size > 1) throw bad(group.line, `the rows of id '${group.id}' name different kinds (${[...kinds].join(', ')})`);
  const rows = [...group.rows].sort((a, b) => a.order - b.order);
  const draft: Record<string, unknown> = {
    kind: [...kinds][0] ?? 'point',
    points: rows.map(({ record }) => ['x', 'y', 'z'].map((axis) => readNumber(cell(record, axis), axis, record.line))),
  };
  for (const name of FIRST_OF_GROUP) {
    const value = first(name);
    if (value !== undefined) draft[name] = value;
  }
  const properties: Record<string, number | string> = {};
  for (const [name, index] of columns) {
    if (['id', 'kind', 'point', 'x', 'y', 'z', ...FIRST_OF_GROUP].includes(name) || IGNORED.has(name)) continue;
    const value = group.rows.map((r) => r.record.fields[index] ?? '').find((v) => v.trim() !== '');
    if (value !== undefined) properties[header.fields[index]!.trim()] = NUMBER.test(value.trim()) ? Number(value.trim()) : value;
  }
  if (Object.keys(properties).length > 0) draft.properties = properties;
  return draft;
}

/** Rows grouped into annotations as they are read, refused as soon as there are more than `max`. */
class Grouping {
  header: CsvRecord | null = null;
  columns = new Map<string, number>();
  groups = new Map<string, Group>();
  alone: Group[] = [];
  #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  readonly take = (record: CsvRecord): void => {
    if (!this.header) {
      this.header = record;
      this.columns = columnsOf(record);
      return;
    }
    const { header, columns } = this;
    if (record.fields.length !== header.fields.length) throw bad(record.line, `has ${record.fields.length} fields, the header has ${header.fields.length}`);
    const id = columns.has('id') ? record.fields[columns.get('id')!]!.trim() : '';
    const pointCell = columns.has('point') ? record.fields[columns.get('point')!]!.trim() : '';
    const order = pointCell === '' ? Number.MAX_SAFE_INTEGER : readNumber(pointCell, 'point', record.line);
    let group = id === '' ? undefined : this.groups.get(id);
    if (!group) {
      // Refused at the first annotation past the cap, not after reading the rest.
      if (this.groups.size + this.alone.length >= this.#max)
        throw bad(record.line, `starts annotation ${this.#max + 1}, more than a room keeps (${this.#max}); nothing was added`);
      group = { line: record.line, id, rows: [] };
      if (id === '') this.alone.push(group);
      else this.groups.set(id, group);
    }
    group.rows.push({ record, order: pointCell === '' && id !== '' ? group.rows.length : order });
  };
}

/** The annotations of a CSV text (at most `max`). @throws SPC_ERR_ANNOTATION_CSV naming the line. */
export function parseAnnotationCsv(text: string, max: number): AnnotationInput[] {
  const grouping = new Grouping(max);
  rethrown(() => parseCsvRecords(text, grouping.take), CsvSyntaxError, (error) => bad(error.line, error.message));
  const { header, columns } = grouping;
  if (!header) throw bad(1, 'the file is empty: it needs a header row (x, y, z, ...) and a row per point');
  const all = [...grouping.groups.values(), ...grouping.alone].sort((a, b) => a.line - b.line);
  if (all.length === 0) throw bad(header.line, 'there is no row after the header');
  return all.map((group) => {
    try {
      return checkDraft(draftOf(group, columns, header), '');
    } catch (error) {
      if (isHostError(error) && error.code === 'SPC_ERR_ANNOTATION_INVALID')
        throw bad(group.line, group.id === '' ? error.message : `(id '${group.id}') ${error.message}`);
      throw error;
    }
  });
}
