/**
 * @module load-specimen-folder
 * Turns one folder of the specimens directory into a catalog record: reads its
 * `specimen.json`, confines every path it names to the specimens directory, finds the data
 * file (with the `.npy` sidecar) and the thumbnail. Never throws: whatever is wrong becomes a
 * line in `problems`, prefixed with the folder name.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DataSource, SpecimenRecord, ThumbnailSource } from './specimen-record.ts';
import { parseDataUri } from './data-uri.ts';
import { inferSpecimenType } from './infer-specimen-type.ts';
import { readNpySidecar } from './npy-sidecar.ts';
import { isSafeRelativePath, resolveInsideReal } from './safe-path.ts';
import { readSpecimenMetadata, type SpecimenMetadata } from './specimen-metadata.ts';

export const METADATA_FILE = 'specimen.json';
/** A metadata file is a few kilobytes; a huge one is a mistake, not something to parse. */
const MAX_METADATA_BYTES = 1 << 20;
/** Looked for, in order, when `specimen.json` names no thumbnail (or a missing one). */
const DEFAULT_THUMBNAILS = ['thumbnail.png', 'thumbnail.jpg', 'thumbnail.jpeg', 'thumbnail.webp', 'thumbnail.gif', 'thumbnail.svg'];

export interface FolderResult {
  record: SpecimenRecord | null;
  problems: string[];
}

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'error';
}

/** Stats a confined path: 'file', 'missing' or 'other' (a directory, a device...). */
async function kindOf(absolute: string): Promise<'file' | 'missing' | 'other'> {
  const info = await stat(absolute).catch(() => null);
  return info === null ? 'missing' : info.isFile() ? 'file' : 'other';
}

/**
 * Resolves `value` (a path written in specimen.json) relative to the specimen's folder. The
 * value itself must be a plain relative path; the result must stay inside the specimens root.
 */
async function confine(realRoot: string, folder: string, value: string): Promise<string | null> {
  return isSafeRelativePath(value) ? resolveInsideReal(realRoot, `${folder}/${value}`) : null;
}

async function readMetadataFile(realRoot: string, folder: string, problems: string[]): Promise<unknown> {
  const file = await resolveInsideReal(realRoot, `${folder}/${METADATA_FILE}`);
  if (file === null) {
    problems.push(`${METADATA_FILE} leaves the specimens directory: specimen skipped`);
    return undefined;
  }
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    if (info.size > MAX_METADATA_BYTES) {
      problems.push(`${METADATA_FILE} is ${info.size} bytes, over the ${MAX_METADATA_BYTES}-byte limit: specimen skipped`);
      return undefined;
    }
    const text = await readFile(file, 'utf8');
    try {
      return JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      problems.push(`${METADATA_FILE} is not valid JSON (${(error as Error).message}): specimen skipped`);
      return undefined;
    }
  } catch (error) {
    if (errno(error) !== 'ENOENT') problems.push(`${METADATA_FILE} cannot be read (${errno(error)}): specimen skipped`);
    return undefined;
  }
}

async function resolveData(realRoot: string, folder: string, meta: SpecimenMetadata, problems: string[]): Promise<DataSource | undefined> {
  const dataFile = meta.data_file;
  if (dataFile === null) return undefined;
  if (meta.function_name !== null) {
    problems.push(`'data_file' is ignored: the specimen is dynamic (function '${meta.function_name}')`);
    return undefined;
  }
  const relative = `${folder}/${dataFile}`;
  const absolute = await confine(realRoot, folder, dataFile);
  if (absolute === null) {
    problems.push(`'data_file' ${JSON.stringify(dataFile)} is not a relative path inside the specimens directory: dropped`);
    return undefined;
  }
  const kind = await kindOf(absolute);
  if (kind === 'other') {
    problems.push(`'data_file' ${JSON.stringify(dataFile)} is not a regular file: dropped`);
    return undefined;
  }
  // A missing data file keeps the record: the catalog shows it and /data answers 404.
  if (kind === 'missing') problems.push(`data file ${JSON.stringify(dataFile)} does not exist (yet): /data answers 404`);
  const fileName = path.posix.basename(dataFile);
  if (path.extname(fileName).toLowerCase() !== '.npy') return { kind: 'file', path: absolute, fileName };
  const side = await readNpySidecar(realRoot, relative, problems);
  const spacing = side.spacing ?? meta.spacing;
  const origin = side.origin ?? meta.origin;
  return {
    kind: 'npy',
    path: absolute,
    fileName,
    ...(spacing ? { spacing } : {}),
    ...(origin ? { origin } : {}),
    ...(side.labels ? { labels: side.labels } : {}),
    ...(side.described ? { described: side.described } : {}),
  };
}

interface ThumbnailChoice {
  thumbnail: ThumbnailSource;
  thumbnail_file: string | null;
}

async function findDefaultThumbnail(realRoot: string, folder: string): Promise<ThumbnailChoice | null> {
  const listed = await readdir(path.join(realRoot, folder)).catch(() => null);
  if (listed === null) return null;
  const names = new Set(listed);
  for (const name of DEFAULT_THUMBNAILS) {
    if (!names.has(name)) continue;
    const absolute = await resolveInsideReal(realRoot, `${folder}/${name}`);
    if (absolute !== null && (await kindOf(absolute)) === 'file') {
      return { thumbnail: { kind: 'file', path: absolute }, thumbnail_file: name };
    }
  }
  return null;
}

async function resolveThumbnail(realRoot: string, folder: string, meta: SpecimenMetadata, problems: string[]): Promise<ThumbnailChoice> {
  const given = meta.thumbnail;
  if (given !== null && /^data:/i.test(given)) {
    if (parseDataUri(given) !== null) return { thumbnail: { kind: 'data-uri', uri: given }, thumbnail_file: null };
    problems.push(`'thumbnail_file' is a malformed data URI: ignored`);
  } else if (given !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
    problems.push(`'thumbnail_file' ${JSON.stringify(given)} is a URL; only files in the folder and data URIs are served: ignored`);
  } else if (given !== null) {
    const absolute = await confine(realRoot, folder, given);
    if (absolute === null) {
      problems.push(`'thumbnail_file' ${JSON.stringify(given)} is not a relative path inside the specimens directory: dropped`);
    } else if ((await kindOf(absolute)) === 'file') {
      return { thumbnail: { kind: 'file', path: absolute }, thumbnail_file: given };
    } else {
      problems.push(`thumbnail ${JSON.stringify(given)} does not exist or is not a file`);
    }
  }
  return (await findDefaultThumbnail(realRoot, folder)) ?? { thumbnail: { kind: 'none' }, thumbnail_file: null };
}

function specimenType(meta: SpecimenMetadata): string {
  if (meta.type !== null) return meta.type;
  const inferred = meta.function_name === null && meta.data_file !== null ? inferSpecimenType(meta.data_file) : null;
  return inferred ?? 'mesh';
}

/**
 * Loads the specimen in `realRoot/folder` (`realRoot` already real, `folder` one directory
 * entry name). A folder without `specimen.json` is not a specimen: null record, no problem.
 */
export async function loadSpecimenFolder(realRoot: string, folder: string): Promise<FolderResult> {
  const problems: string[] = [];
  const done = (record: SpecimenRecord | null): FolderResult => ({
    record,
    problems: problems.map((p) => `${folder}: ${p}`),
  });
  if ((await resolveInsideReal(realRoot, folder)) === null) {
    problems.push('the folder (a symlink?) leaves the specimens directory: skipped');
    return done(null);
  }
  const raw = await readMetadataFile(realRoot, folder, problems);
  if (raw === undefined) return done(null);
  const { metadata: meta, problems: fieldProblems } = readSpecimenMetadata(raw, folder);
  problems.push(...fieldProblems);
  if (meta === null) return done(null);
  if (meta.schema !== null && meta.function_name === null) {
    problems.push(`'schema' is ignored: the specimen is static (no 'function_name')`);
  }
  const [data, thumb] = await Promise.all([
    resolveData(realRoot, folder, meta, problems),
    resolveThumbnail(realRoot, folder, meta, problems),
  ]);
  const record: SpecimenRecord = {
    id: meta.id,
    display_name: meta.display_name,
    description: meta.description,
    type: specimenType(meta),
    ...(meta.type === null && meta.function_name !== null ? { type_from_function: true } : {}),
    tags: meta.tags,
    is_dynamic: meta.function_name !== null,
    function_name: meta.function_name,
    thumbnail_file: thumb.thumbnail_file,
    thumbnail: thumb.thumbnail,
    story: meta.story,
    origin: 'disk',
  };
  if (data) record.data = data;
  if (meta.color !== null) record.color = meta.color;
  if (meta.schema !== null && meta.function_name !== null) record.schema_override = meta.schema;
  return done(record);
}
