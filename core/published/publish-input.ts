/**
 * @module publish-input
 * What a `PUT /api/specimens/{id}` says besides its file: `display_name`, `description`,
 * `tags` (a list, or comma-separated text in the query), and for a `.npy` volume its
 * `spacing` and `origin` (three numbers, or comma-separated text), its length `unit` and its
 * time and channels (`axes`, `channels`, `time_step`, `time_unit`, `vector`), and for a
 * segmentation `role=labels` with optional `label_names` and `label_colors` (objects keyed by
 * label id; JSON text in the query), the `room` a layer's array is published for, and the
 * `source` the publisher says made it (kept in its provenance). Read
 * from the query for a file body and from the JSON body otherwise; anything malformed is a
 * 400 naming the field.
 */
import { createHostError } from '../errors.ts';
import { roomIdProblem } from '../events/room-id.ts';
import { LabelFieldError, readLabelFields, type LabelFields } from '../results/label-fields.ts';
import { AxesFieldError } from '../results/volume-axes.ts';
import { readVolumeFields, VOLUME_FIELD_NAMES, type VolumeFieldsInput } from '../results/volume-fields-input.ts';
import type { PublishedMeta } from './published-record.ts';

/**
 * The record's fields as given; `labels` (`role=labels`) is checked against the file's dtype,
 * and `described` (a volume's unit, time and channels) against its shape, once it is read.
 */
export interface PublishFields extends Partial<Pick<PublishedMeta, 'display_name' | 'description' | 'tags' | 'spacing' | 'origin' | 'labels' | 'room'>> {
  described?: VolumeFieldsInput;
  /** What the publisher says made it (a script, a notebook: `segment.py`), kept in its provenance. */
  source?: string;
}

/** What `role` may say: `image` (the default) or `labels`. */
const ROLES = ['image', 'labels'];

/** Longest display name, description and tag accepted. */
const MAX_TEXT = 10_000;
const MAX_TAGS = 64;
/** Longest `source` kept (a script's name or path, not its text). */
const MAX_SOURCE = 500;

const bad = (why: string) => createHostError('SPC_ERR_PUBLISH_INVALID', why);

function text(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw bad(`'${name}' must be a string`);
  if (value.length > MAX_TEXT) throw bad(`'${name}' is longer than ${MAX_TEXT} characters`);
  return value;
}

function tags(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',').map((t) => t.trim()).filter((t) => t !== '') : value;
  if (!Array.isArray(list) || !list.every((t) => typeof t === 'string' && t.length <= 200))
    throw bad("'tags' must be a list of strings (or comma-separated text)");
  if (list.length > MAX_TAGS) throw bad(`'tags' has more than ${MAX_TAGS} entries`);
  return list as string[];
}

function triple(name: string, value: unknown): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',').map((v) => (v.trim() === '' ? NaN : Number(v))) : value;
  if (!Array.isArray(list) || list.length !== 3 || !list.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw bad(`'${name}' must be three finite numbers`);
  }
  return list as number[];
}

/** An object, or JSON text of one in a query (`label_names={"1":"nucleus"}`). */
function jsonObject(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw bad(`'${name}' must be a JSON object keyed by label id`);
  }
}

/** `role` and the label tables; the tables need `role=labels`. Checked against the widest labels dtype here. */
function labels(source: Record<string, unknown>): LabelFields | undefined {
  const role = source.role;
  if (role !== undefined && role !== null && (typeof role !== 'string' || !ROLES.includes(role))) throw bad(`'role' must be one of ${ROLES.join(', ')}`);
  const fields = {
    labels: role === 'labels',
    label_names: jsonObject('label_names', source.label_names),
    label_colors: jsonObject('label_colors', source.label_colors),
  };
  try {
    return readLabelFields(fields, 'uint32');
  } catch (error) {
    if (!(error instanceof LabelFieldError)) throw error;
    throw bad(error.field === 'labels' ? error.message : error.message.replace('labels is not true', 'role is not labels'));
  }
}

/** The room a specimen is published for, held to the rule every room id is. */
function roomOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw bad("'room' must be a string");
  const problem = roomIdProblem(value);
  if (problem) throw bad(`'room' ${problem}`);
  return value;
}

/** The fields of a publish request, from its query or JSON body. */
export function readPublishFields(source: Record<string, unknown>): PublishFields {
  const given: PublishFields = {
    display_name: text('display_name', source.display_name),
    description: text('description', source.description),
    tags: tags(source.tags),
    spacing: triple('spacing', source.spacing),
    origin: triple('origin', source.origin),
    room: roomOf(source.room),
    source: text('source', source.source)?.slice(0, MAX_SOURCE),
    labels: labels(source),
  };
  // A field not given is no key at all.
  const fields = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as PublishFields;
  try {
    const described = readVolumeFields(source);
    if (Object.keys(described).length > 0) fields.described = described;
  } catch (error) {
    if (error instanceof AxesFieldError) throw bad(`'${error.field}': ${error.message}`);
    throw error;
  }
  return fields;
}

/** The members a JSON publish body may have. */
export const PUBLISH_BODY_FIELDS = new Set([
  'upload',
  'filename',
  'display_name',
  'description',
  'tags',
  'spacing',
  'origin',
  'role',
  'label_names',
  'label_colors',
  'room',
  'source',
  ...VOLUME_FIELD_NAMES,
]);
