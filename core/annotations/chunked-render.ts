/**
 * @module chunked-render
 * A room's list rendered as JSON (as answered, or canonical for a snapshot) or CSV text without holding the event loop: the annotations
 * are taken a few hundred points at a time, the loop free between batches, and each annotation's
 * text is kept with it (annotations are replaced, never changed in place), so the next version
 * of a room of 100,000 marks held in memory renders again only the marks that moved. The answered forms also
 * come as bytes, a part per batch, so no text of a whole room is ever made.
 *
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
import { inWeighedTurns } from '../memory/turn-batches.ts';
import type { Annotation, AnnotationList } from '../wire/scene-types.ts';
import { csvLine } from './csv-records.ts';
import { stableJson } from '../wire/stable-json.ts';
import { pointsOf } from './annotation-record.ts';
import { NO_UNITS, UNIT_FIELDS, unitFieldsOf, unitsKey, type FrameUnits } from './mark-units.ts';

/** The fixed columns, in order. */
const CSV_COLUMNS = ['id', 'kind', 'label', 'layer', 'point', 'x', 'y', 'z', 'length', 'volume', 'color', 'author', ...UNIT_FIELDS] as const;

const text = (value: string | number | undefined): string => (value === undefined ? '' : String(value));

/** The property names found in the room, sorted: one column each after the fixed ones. */
function propertyColumns(annotations: readonly Annotation[]): string[] {
  const names = new Set<string>();
  for (const a of annotations) if (a.properties) for (const name of Object.keys(a.properties)) names.add(name);
  return [...names].sort();
}

/** One annotation's rows (one per point) under the given property columns, its units those of its frame in `units`. */
function csvRowsOf(a: Annotation, properties: readonly string[], units: FrameUnits = NO_UNITS): string {
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

/** Points rendered between two turns of the event loop (500 marks, or one long polyline alone). */
const BATCH_POINTS = 500;

/** Each annotation's JSON, kept for as long as the annotation object lives. */
const jsonOf = new WeakMap<Annotation, string>();
/** Each annotation's canonical JSON (keys sorted), as snapshots hash it. */
const stableOf = new WeakMap<Annotation, string>();
/** Each annotation's CSV rows, for the property columns they were written with. */
const rowsOf = new WeakMap<Annotation, { columns: string; rows: string }>();

/**
 * `render(a)` of every annotation, in order and joined by `separator`, as one text per batch
 * (a batch per turn of the event loop): `take` turns each batch's text into what is kept.
 */
function renderBatches<T>(
  annotations: readonly Annotation[],
  render: (a: Annotation) => string,
  separator: string,
  take: (text: string) => T,
): Promise<T[]> {
  return inWeighedTurns(annotations, BATCH_POINTS, pointsOf, (batch, at) => take((at > 0 ? separator : '') + batch.map(render).join(separator)));
}

function jsonText(a: Annotation): string {
  let text = jsonOf.get(a);
  if (text === undefined) jsonOf.set(a, (text = JSON.stringify(a)));
  return text;
}

/** `text` (a mark's JSON object) with the mark's unit fields in `units` added at its end. */
function withUnits(text: string, a: Annotation, units: FrameUnits): string {
  const fields = unitFieldsOf(a, units);
  return fields.unit === undefined ? text : `${text.slice(0, -1)},${JSON.stringify(fields).slice(1)}`;
}

/**
 * The list as `{"version":V,"annotations":[...]}`, in bytes, a part per batch: no text of the
 * whole list is ever made, so a large room's answer lives outside the JavaScript heap and no
 * single turn copies all of it. With
 * `keep` false each mark's text is not kept with it: for marks decoded anew for every read
 * (disk, Redis) a kept text is never used again, only copied by the collector while it lives.
 * Each mark names the units of its frame in `units` (none given: no unit fields).
 */
export async function renderJsonParts(list: AnnotationList, keep = true, units: FrameUnits = NO_UNITS): Promise<Buffer[]> {
  const text = keep ? jsonText : (a: Annotation) => JSON.stringify(a);
  const render = units === NO_UNITS ? text : (a: Annotation) => withUnits(text(a), a, units);
  const parts = await renderBatches(list.annotations, render, ',', (text) => Buffer.from(text));
  return [Buffer.from(`{"version":${list.version},"annotations":[`), ...parts, Buffer.from(']}')];
}

/** The annotations as canonical JSON (`stableJson(annotations)`, the same text), a batch per turn. */
export async function renderStableJson(annotations: readonly Annotation[]): Promise<string> {
  const stableText = (a: Annotation): string => {
    let text = stableOf.get(a);
    if (text === undefined) stableOf.set(a, (text = stableJson(a)));
    return text;
  };
  return `[${(await renderBatches(annotations, stableText, ',', (text) => text)).join('')}]`;
}

/** The CSV's header line and a function rendering each annotation's rows under it. */
function csvForm(annotations: readonly Annotation[], keep: boolean, units: FrameUnits): { head: string; rows: (a: Annotation) => string } {
  const properties = propertyColumns(annotations);
  // A mark's rows are kept for the columns and units they were written with.
  const columns = [...properties, unitsKey(units)].join('\u0000');
  const rows = (a: Annotation): string => {
    const kept = rowsOf.get(a);
    if (kept?.columns === columns) return kept.rows;
    const made = csvRowsOf(a, properties, units);
    if (keep) rowsOf.set(a, { columns, rows: made });
    return made;
  };
  return { head: csvLine([...CSV_COLUMNS, ...properties]), rows };
}

/** The annotations as CSV, one row per point (the shape above), in bytes, a part per batch (`keep` and `units` as renderJsonParts'). */
export async function renderCsvParts(annotations: readonly Annotation[], keep = true, units: FrameUnits = NO_UNITS): Promise<Buffer[]> {
  const { head, rows } = csvForm(annotations, keep, units);
  return [Buffer.from(head), ...(await renderBatches(annotations, rows, '', (text) => Buffer.from(text)))];
}
