/**
 * @module chunked-render
 * A room's list rendered as JSON (as answered, or canonical for a snapshot) or CSV text without holding the event loop: the annotations
 * are taken a few thousand at a time, the loop free between batches, and each annotation's
 * text is kept with it (annotations are replaced, never changed in place), so the next version
 * of a room of 100,000 marks renders again only the marks that moved.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Annotation, AnnotationList } from '../wire/scene-types.ts';
import { CSV_COLUMNS, csvRowsOf, propertyColumns } from './annotation-csv.ts';
import { csvLine } from './csv-records.ts';
import { stableJson } from '../wire/stable-json.ts';

/** Annotations rendered between two turns of the event loop. */
const BATCH = 2000;

/** Each annotation's JSON, kept for as long as the annotation object lives. */
const jsonOf = new WeakMap<Annotation, string>();
/** Each annotation's canonical JSON (keys sorted), as snapshots hash it. */
const stableOf = new WeakMap<Annotation, string>();
/** Each annotation's CSV rows, for the property columns they were written with. */
const rowsOf = new WeakMap<Annotation, { columns: string; rows: string }>();

/** `render(a)` of every annotation, in order, a batch per turn of the event loop. */
async function renderEach(annotations: readonly Annotation[], render: (a: Annotation) => string): Promise<string[]> {
  const parts = new Array<string>(annotations.length);
  for (let i = 0; i < annotations.length; i++) {
    if (i > 0 && i % BATCH === 0) await nextTurn();
    parts[i] = render(annotations[i]!);
  }
  return parts;
}

/** The list as `{"version":V,"annotations":[...]}`. */
export async function renderJson(list: AnnotationList): Promise<string> {
  const parts = await renderEach(list.annotations, (a) => {
    let text = jsonOf.get(a);
    if (text === undefined) jsonOf.set(a, (text = JSON.stringify(a)));
    return text;
  });
  return `{"version":${list.version},"annotations":[${parts.join(',')}]}`;
}

/** The annotations as canonical JSON (`stableJson(annotations)`, the same text), a batch per turn. */
export async function renderStableJson(annotations: readonly Annotation[]): Promise<string> {
  const parts = await renderEach(annotations, (a) => {
    let text = stableOf.get(a);
    if (text === undefined) stableOf.set(a, (text = stableJson(a)));
    return text;
  });
  return `[${parts.join(',')}]`;
}

/** The annotations as CSV, one row per point (annotation-csv.ts's shape). */
export async function renderCsv(annotations: readonly Annotation[]): Promise<string> {
  const properties = propertyColumns(annotations);
  const columns = properties.join('\u0000');
  const parts = await renderEach(annotations, (a) => {
    const kept = rowsOf.get(a);
    if (kept?.columns === columns) return kept.rows;
    const rows = csvRowsOf(a, properties);
    rowsOf.set(a, { columns, rows });
    return rows;
  });
  return csvLine([...CSV_COLUMNS, ...properties]) + parts.join('');
}
