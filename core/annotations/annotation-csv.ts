/**
 * @module annotation-csv
 * A room's annotations as CSV (`GET .../annotations?format=csv`): one row per point, in id
 * order and each annotation's points in order, with the columns `id, kind, label, layer,
 * point` (the point's place in its annotation, from 0), `x, y, z`, the measurements `length`
 * and `volume` (on every row of their annotation; empty where they do not apply), `color`,
 * `author`, the units (`unit` of the points, `length_unit`, `volume_unit`: mark-units.ts; empty
 * where a frame states none), then one column per property name found in the room (sorted).
 * The units come after the columns the export had before them, so a reader that counts columns
 * still finds what it read. Numbers are written
 * in the shortest form that reads back as the same double. The same shape imports
 * (parse-annotation-csv.ts).
 */
import type { Annotation } from '../wire/scene-types.ts';
import { csvLine } from './csv-records.ts';
import { NO_UNITS, UNIT_FIELDS, unitFieldsOf, type FrameUnits } from './mark-units.ts';

/** The fixed columns, in order. */
export const CSV_COLUMNS = ['id', 'kind', 'label', 'layer', 'point', 'x', 'y', 'z', 'length', 'volume', 'color', 'author', ...UNIT_FIELDS] as const;

const text = (value: string | number | undefined): string => (value === undefined ? '' : String(value));

/** The property names found in the room, sorted: one column each after the fixed ones. */
export function propertyColumns(annotations: readonly Annotation[]): string[] {
  const names = new Set<string>();
  for (const a of annotations) if (a.properties) for (const name of Object.keys(a.properties)) names.add(name);
  return [...names].sort();
}

/** One annotation's rows (one per point) under the given property columns, its units those of its frame in `units`. */
export function csvRowsOf(a: Annotation, properties: readonly string[], units: FrameUnits = NO_UNITS): string {
  const unit = unitFieldsOf(a, units);
  const tail = [
    text(a.length),
    text(a.volume),
    text(a.color),
    text(a.author),
    ...UNIT_FIELDS.map((name) => text(unit[name])),
    ...properties.map((name) => text(a.properties?.[name])),
  ];
  const head = [a.id, a.kind, text(a.label), text(a.layer)];
  return a.points.map((p, index) => csvLine([...head, String(index), String(p[0]), String(p[1]), String(p[2]), ...tail])).join('');
}
