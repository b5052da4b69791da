/**
 * @module check-annotation
 * What a client may send as an annotation, checked field by field: its `kind` and `points`
 * (one point; two ends; two or more vertices; two opposite corners; a centre then its radii),
 * and optionally `layer` (a layer id whose frame the points are in), `label`, `color`
 * (`#rrggbb`), `properties` (at most 16 names, each a number or a short string) and `author`.
 * Every failure is a 400 naming the field by its path (`annotations[3].points[1][2] must be a
 * finite number`). What the host sets itself (`id`, `version`, `created`, `updated`, the
 * measurements and an export's units) is ignored when sent, so an exported list can be
 * imported again as it is.
 */
import { ANNOTATION_KINDS, type AnnotationInput, type AnnotationKind, type Vec3 } from '../wire/scene-types.ts';
import { createHostError, type HostError } from '../errors.ts';
import { isRecord } from '../wire/json-object.ts';
import { UNIT_FIELDS } from './mark-units.ts';

export const MAX_LABEL_LENGTH = 256;
export const MAX_AUTHOR_LENGTH = 64;
export const MAX_PROPERTIES = 16;
export const MAX_PROPERTY_STRING = 256;
/** Vertices of one polyline at most. */
export const MAX_POINTS = 10_000;
/** A layer id, as scenes name layers. */
export const LAYER_ID = /^[A-Za-z0-9_.-]{1,64}$/;
export const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
export const COLOR = /^#[0-9a-fA-F]{6}$/;

/** The fields a client sets, in the order the host writes them. */
export const DRAFT_FIELDS = ['kind', 'points', 'layer', 'label', 'color', 'properties', 'author'] as const satisfies readonly (keyof AnnotationInput)[];
/** The fields the host sets (an export's units among them): ignored when a client sends them. */
export const HOST_FIELDS = ['id', 'version', 'created', 'updated', 'length', 'volume', ...UNIT_FIELDS] as const;
/** Names a property may not take: the columns of the CSV form. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([...DRAFT_FIELDS, ...HOST_FIELDS, 'point', 'x', 'y', 'z']);

/** How many points each kind takes, and how a message says it. */
const POINT_COUNTS: Record<AnnotationKind, { min: number; max: number; text: string }> = {
  point: { min: 1, max: 1, text: 'one point' },
  line: { min: 2, max: 2, text: 'two points (its ends)' },
  polyline: { min: 2, max: MAX_POINTS, text: `from 2 to ${MAX_POINTS} points (its vertices)` },
  box: { min: 2, max: 2, text: 'two points (opposite corners)' },
  ellipsoid: { min: 2, max: 2, text: 'two points (its centre, then its three radii)' },
};

/** `path.name`, or `name` at the top. */
export function fieldPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export const invalid = (field: string, why: string): HostError => createHostError('SPC_ERR_ANNOTATION_INVALID', field, why);

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value}'`;
  return typeof value === 'object' ? 'an object' : String(value);
}

function checkKind(value: unknown, field: string): AnnotationKind {
  if (typeof value !== 'string' || !(ANNOTATION_KINDS as readonly string[]).includes(value))
    throw invalid(field, `must be one of ${ANNOTATION_KINDS.join(', ')}, got ${describe(value)}`);
  return value as AnnotationKind;
}

function checkPoint(value: unknown, field: string): Vec3 {
  if (!Array.isArray(value) || value.length !== 3)
    throw invalid(field, `must be a point [x, y, z] of three numbers, got ${Array.isArray(value) ? `${value.length} values` : describe(value)}`);
  for (let axis = 0; axis < 3; axis++) {
    const v: unknown = value[axis];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`${field}[${axis}]`, `must be a finite number, got ${describe(v)}`);
  }
  return [value[0] as number, value[1] as number, value[2] as number];
}

/** The points of a `kind`, checked: their count, each finite, an ellipsoid's radii positive. */
export function checkPoints(kind: AnnotationKind, value: unknown, field: string): Vec3[] {
  if (!Array.isArray(value)) throw invalid(field, `must be a list of points [x, y, z], got ${describe(value)}`);
  const count = POINT_COUNTS[kind];
  if (value.length < count.min || value.length > count.max) throw invalid(field, `must hold ${count.text} for a ${kind}, got ${value.length}`);
  const points = value.map((point, index) => checkPoint(point, `${field}[${index}]`));
  if (kind === 'ellipsoid') {
    points[1]!.forEach((radius, axis) => {
      if (!(radius > 0)) throw invalid(`${field}[1][${axis}]`, `must be a radius > 0 (an ellipsoid's second point holds its radii), got ${radius}`);
    });
  }
  return points;
}

/** A short text field: absent when empty. */
function checkText(value: unknown, field: string, max: number): string | undefined {
  if (typeof value !== 'string') throw invalid(field, `must be a string, got ${describe(value)}`);
  const length = [...value].length;
  if (length > max) throw invalid(field, `must be at most ${max} characters, got ${length}`);
  return value === '' ? undefined : value;
}

function checkProperties(value: unknown, field: string): Record<string, number | string> | undefined {
  if (!isRecord(value)) throw invalid(field, `must be an object of names to numbers or strings, got ${describe(value)}`);
  const names = Object.keys(value);
  if (names.length > MAX_PROPERTIES) throw invalid(field, `must have at most ${MAX_PROPERTIES} names, got ${names.length}`);
  const properties: Record<string, number | string> = {};
  for (const name of names) {
    const at = `${field}.${name}`;
    if (!PROPERTY_NAME.test(name)) throw invalid(at, 'is not a usable property name (a letter or _ first, then letters, digits, _ . -; at most 64)');
    if (RESERVED_NAMES.has(name)) throw invalid(at, 'is the name of an annotation field: name the property otherwise');
    const v = value[name];
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw invalid(at, `must be a finite number or a string, got ${v}`);
      properties[name] = v;
    } else if (typeof v === 'string') {
      const length = [...v].length;
      if (length > MAX_PROPERTY_STRING) throw invalid(at, `must be at most ${MAX_PROPERTY_STRING} characters, got ${length}`);
      properties[name] = v;
    } else {
      throw invalid(at, `must be a number or a string, got ${describe(v)}`);
    }
  }
  return names.length === 0 ? undefined : properties;
}

/** One optional field's value, checked; undefined when it leaves the field unset. */
export function checkOptional(name: 'layer' | 'label' | 'color' | 'properties' | 'author', value: unknown, field: string): unknown {
  switch (name) {
    case 'layer':
      if (typeof value !== 'string' || !(value === '' || LAYER_ID.test(value)))
        throw invalid(field, `must be a layer id (letters, digits, _ . -; at most 64), got ${describe(value)}`);
      return value === '' ? undefined : value;
    case 'label':
      return checkText(value, field, MAX_LABEL_LENGTH);
    case 'author':
      return checkText(value, field, MAX_AUTHOR_LENGTH);
    case 'color':
      if (typeof value !== 'string' || !(value === '' || COLOR.test(value))) throw invalid(field, `must be a colour #rrggbb, got ${describe(value)}`);
      return value === '' ? undefined : value.toLowerCase();
    case 'properties':
      return checkProperties(value, field);
  }
}

/** Throws for a member that is neither a client's field nor one the host sets. */
export function refuseUnknown(record: Record<string, unknown>, path: string): void {
  for (const key of Object.keys(record)) {
    if (!(DRAFT_FIELDS as readonly string[]).includes(key) && !(HOST_FIELDS as readonly string[]).includes(key)) {
      throw invalid(fieldPath(path, key), `is not an annotation field (fields: ${DRAFT_FIELDS.join(', ')})`);
    }
  }
}

/** One annotation as a client sent it, checked; `path` names it in messages ('' at the top, `annotations[3]`). */
export function checkDraft(value: unknown, path: string): AnnotationInput {
  if (!isRecord(value)) throw invalid(path === '' ? 'body' : path, `must be an annotation object {kind, points, ...}, got ${describe(value)}`);
  refuseUnknown(value, path);
  if (value.kind === undefined) throw invalid(fieldPath(path, 'kind'), `is required (${ANNOTATION_KINDS.join(', ')})`);
  const kind = checkKind(value.kind, fieldPath(path, 'kind'));
  if (value.points === undefined) throw invalid(fieldPath(path, 'points'), 'is required');
  const draft: AnnotationInput = { kind, points: checkPoints(kind, value.points, fieldPath(path, 'points')) };
  for (const name of ['layer', 'label', 'color', 'properties', 'author'] as const) {
    if (value[name] === undefined || value[name] === null) continue;
    const checked = checkOptional(name, value[name], fieldPath(path, name));
    if (checked !== undefined) (draft as unknown as Record<string, unknown>)[name] = checked;
  }
  return draft;
}

/**
 * The annotations of a POST body: one annotation, a list of them, or `{"annotations": [...]}`
 * (the list's own answer, imported again). At least one; at most `max`.
 */
export function checkDrafts(body: unknown, max: number): AnnotationInput[] {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.annotations) ? body.annotations : null;
  if (list === null) return [checkDraft(body, '')];
  if (list.length === 0) throw invalid('annotations', 'is empty: send at least one annotation');
  if (list.length > max) throw invalid('annotations', `holds ${list.length} annotations, more than a room keeps (${max})`);
  return list.map((item, index) => checkDraft(item, `annotations[${index}]`));
}
