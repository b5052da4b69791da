/**
 * @module label-fields
 * What marks a volume as a segmentation: `labels: true` on a uint8, uint16 or uint32 volume
 * (each sample a label id, 0 the background), with optional `label_names` and `label_colors`
 * keyed by id (`{"3": "nucleus"}`, `{"3": "#ff8800"}`). One reading for every way a volume
 * arrives (a TypeScript result, a Python one, a published file, a sidecar), so each refuses
 * the same things with the same words: ids written as plain decimals within the dtype, names
 * of at most 256 characters, colours `#rrggbb`, at most 10,000 entries per table.
 */

import { rethrown } from './rethrown.ts';

/** The element types a labels volume may have. */
export const LABEL_DTYPES = ['uint8', 'uint16', 'uint32'] as const;
export type LabelDType = (typeof LABEL_DTYPES)[number];

/** Most entries in `label_names` or in `label_colors`. */
export const MAX_LABEL_ENTRIES = 10_000;
/** Longest label name. */
export const MAX_LABEL_NAME = 256;

/** The largest id each labels dtype holds. */
export const LABEL_MAX: Readonly<Record<LabelDType, number>> = { uint8: 255, uint16: 65535, uint32: 4294967295 };

/** The fields of a volume marked as labels, as a stored result carries them. */
export interface LabelFields {
  labels: true;
  label_names?: Record<string, string>;
  label_colors?: Record<string, string>;
}

/** A label field that is not what it must be; `field` names it. */
export class LabelFieldError extends Error {
  readonly field: string;
  constructor(field: string, why: string) {
    super(`${field} ${why}`);
    this.field = field;
  }
}

export function isLabelDType(dtype: unknown): dtype is LabelDType {
  return typeof dtype === 'string' && (LABEL_DTYPES as readonly string[]).includes(dtype);
}

const COLOR = /^#[0-9a-fA-F]{6}$/;
const ID = /^(0|[1-9][0-9]{0,9})$/;

/** A table keyed by id, each value checked by `check`; entries in ascending id order. */
function table(field: string, value: unknown, max: number, check: (v: unknown) => string | null): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LabelFieldError(field, 'must be an object keyed by label id');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_LABEL_ENTRIES) throw new LabelFieldError(field, `has ${entries.length} entries, more than ${MAX_LABEL_ENTRIES}`);
  const out: [number, string][] = [];
  for (const [key, v] of entries) {
    if (!ID.test(key) || Number(key) > max) throw new LabelFieldError(field, `key '${key.slice(0, 40)}' is not a label id (a whole number from 0 to ${max})`);
    const checked = check(v);
    if (checked === null)
      throw new LabelFieldError(
        field,
        `value of '${key}' is not ${field === 'label_colors' ? 'a colour #rrggbb' : `a string of at most ${MAX_LABEL_NAME} characters`}`,
      );
    out.push([Number(key), checked]);
  }
  out.sort((a, b) => a[0] - b[0]);
  return Object.fromEntries(out.map(([id, v]) => [String(id), v]));
}

const nameOf = (v: unknown): string | null => (typeof v === 'string' && v.length <= MAX_LABEL_NAME ? v : null);
const colorOf = (v: unknown): string | null => (typeof v === 'string' && COLOR.test(v) ? v.toLowerCase() : null);

/**
 * The label fields of `source` for a volume of `dtype`, or undefined when it is not marked as
 * labels (`labels` absent, null or false, and no table given).
 * @throws LabelFieldError naming the field that is wrong.
 */
export function readLabelFields(source: { labels?: unknown; label_names?: unknown; label_colors?: unknown }, dtype: string): LabelFields | undefined {
  const { labels, label_names: names, label_colors: colors } = source;
  if (labels !== undefined && labels !== null && typeof labels !== 'boolean') throw new LabelFieldError('labels', 'must be true or false');
  const hasTables = (names !== undefined && names !== null) || (colors !== undefined && colors !== null);
  if (labels !== true) {
    if (hasTables) throw new LabelFieldError(names !== undefined && names !== null ? 'label_names' : 'label_colors', 'is given but labels is not true');
    return undefined;
  }
  if (!isLabelDType(dtype)) throw new LabelFieldError('labels', `needs a volume of dtype uint8, uint16 or uint32, not ${dtype}`);
  const fields: LabelFields = { labels: true };
  if (names !== undefined && names !== null) fields.label_names = table('label_names', names, LABEL_MAX[dtype], nameOf);
  if (colors !== undefined && colors !== null) fields.label_colors = table('label_colors', colors, LABEL_MAX[dtype], colorOf);
  return fields;
}

/**
 * Fields read earlier without the volume's dtype (a sidecar, a publish request), checked again
 * now that it is known; `invalid` makes the error to throw from the reason.
 */
export function checkedLabels(fields: LabelFields, dtype: string, invalid: (why: string) => Error): LabelFields {
  return rethrown(() => readLabelFields(fields, dtype)!, LabelFieldError, (error) => invalid(error.message));
}

/** The label fields a result carries (none when it is not a labels volume). */
export function labelFieldsOf(result: { type: string; labels?: boolean } & Omit<LabelFields, 'labels'>): LabelFields | undefined {
  if (result.type !== 'volume' || result.labels !== true) return undefined;
  return {
    labels: true,
    ...(result.label_names ? { label_names: result.label_names } : {}),
    ...(result.label_colors ? { label_colors: result.label_colors } : {}),
  };
}
