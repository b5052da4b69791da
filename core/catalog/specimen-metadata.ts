/**
 * @module specimen-metadata
 * Reads the fields of one parsed `specimen.json` into a normalised shape, accepting both our
 * field names and the reference format's (`story_text` as a list of paragraphs, `""` for "no
 * file"). Pure: it touches no file; `load-specimen-folder.ts` resolves the paths it returns.
 * Every field that cannot be used is dropped with a line in `problems`, never a throw.
 */
import { isValidSpecimenId } from './specimen-id.ts';
import { isRecord } from '../wire/json-object.ts';

/** Normalised `specimen.json` fields. Paths are still as written (relative, unchecked). */
export interface SpecimenMetadata {
  id: string;
  display_name: string;
  description: string;
  /** As written, or null to infer it. */
  type: string | null;
  tags: string[];
  data_file: string | null;
  /** A file name relative to the folder, or a `data:` URI. */
  thumbnail: string | null;
  story: string | null;
  function_name: string | null;
  schema: Record<string, unknown> | null;
  spacing: number[] | null;
  origin: number[] | null;
  /** `#rrggbb`: the colour viewers draw the specimen's mesh in. */
  color: string | null;
}

export interface MetadataResult {
  /** Null when the specimen cannot be listed at all (not an object, bad id). */
  metadata: SpecimenMetadata | null;
  problems: string[];
}

type Raw = Record<string, unknown>;

/** The first of `keys` present (not undefined/null) in `raw`, with the key that held it. */
function pick(raw: Raw, keys: string[]): [string, unknown] | null {
  for (const key of keys) {
    if (raw[key] !== undefined && raw[key] !== null) return [key, raw[key]];
  }
  return null;
}

/**
 * Reads a text field. An empty string means "not set" for file-like fields (the reference
 * writes `""`), but is a legitimate value for text.
 */
function text(raw: Raw, keys: string[], problems: string[], emptyIsUnset = false): string | null {
  const found = pick(raw, keys);
  if (!found) return null;
  const [key, value] = found;
  if (typeof value !== 'string') {
    problems.push(`'${key}' must be a string, got ${JSON.stringify(value)}: ignored`);
    return null;
  }
  return emptyIsUnset && value.trim() === '' ? null : value;
}

function tags(raw: Raw, problems: string[]): string[] {
  const found = pick(raw, ['tags']);
  if (!found) return [];
  const value = found[1];
  if (typeof value === 'string') return value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (!Array.isArray(value)) {
    problems.push(`'tags' must be a list of strings: ignored`);
    return [];
  }
  const good = value.filter((t): t is string => typeof t === 'string');
  if (good.length !== value.length) problems.push(`'tags' holds non-string entries: they were dropped`);
  return good;
}

/** `story` (ours) or `story_text` (reference): a string, or a list of paragraphs joined by a blank line. */
function story(raw: Raw, problems: string[]): string | null {
  const found = pick(raw, ['story', 'story_text']);
  if (!found) return null;
  const [key, value] = found;
  if (typeof value === 'string') return value === '' ? null : value;
  if (Array.isArray(value) && value.every((p) => typeof p === 'string')) {
    return value.length === 0 ? null : value.join('\n\n');
  }
  problems.push(`'${key}' must be a string or a list of strings: ignored`);
  return null;
}

/** `color` (or `colour`): a `#rrggbb` string, or null with a problem line. */
function colour(raw: Raw, problems: string[]): string | null {
  const value = text(raw, ['color', 'colour'], problems, true);
  if (value === null || /^#[0-9a-fA-F]{6}$/.test(value)) return value;
  problems.push(`'color' must be a colour written #rrggbb, got ${JSON.stringify(value)}: ignored`);
  return null;
}

/** A list of finite numbers (spacing, origin), or null with a problem line. */
export function numberList(value: unknown, what: string, problems: string[]): number[] | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value) && value.length > 0 && value.length <= 8 && value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return value as number[];
  }
  problems.push(`'${what}' must be a list of finite numbers: ignored`);
  return null;
}

/**
 * Normalises a parsed `specimen.json`. `folderName` supplies the default id.
 * @returns the metadata (null when the specimen must be skipped) and the problems found.
 */
export function readSpecimenMetadata(raw: unknown, folderName: string): MetadataResult {
  const problems: string[] = [];
  if (!isRecord(raw)) {
    return { metadata: null, problems: ['specimen.json must hold a JSON object: specimen skipped'] };
  }
  const givenId = pick(raw, ['id']);
  const id = givenId ? givenId[1] : folderName;
  if (!isValidSpecimenId(id)) {
    const why = givenId ? `'id' ${JSON.stringify(id)}` : `folder name ${JSON.stringify(folderName)} (used as the id)`;
    return { metadata: null, problems: [`${why} is not a valid id (letters, digits, '.', '_', '-'): specimen skipped`] };
  }
  const schemaValue = pick(raw, ['schema']);
  let schema: Record<string, unknown> | null = null;
  if (schemaValue) {
    if (isRecord(schemaValue[1])) schema = schemaValue[1];
    else problems.push(`'schema' must be a JSON object: ignored`);
  }
  const metadata: SpecimenMetadata = {
    id,
    display_name: text(raw, ['display_name', 'name', 'title'], problems, true) ?? id,
    description: text(raw, ['description'], problems) ?? '',
    type: text(raw, ['type'], problems, true),
    tags: tags(raw, problems),
    data_file: text(raw, ['data_file', 'data'], problems, true),
    thumbnail: text(raw, ['thumbnail_file', 'thumbnail'], problems, true),
    story: story(raw, problems),
    function_name: text(raw, ['function_name', 'function'], problems, true),
    schema,
    spacing: numberList(raw.spacing, 'spacing', problems),
    origin: numberList(raw.origin, 'origin', problems),
    color: colour(raw, problems),
  };
  return { metadata, problems };
}
