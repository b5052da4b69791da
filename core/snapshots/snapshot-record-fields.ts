/**
 * @module snapshot-record-fields
 * What the host itself wrote into a snapshot document, checked when the document comes from
 * outside: a layer's `result` (its ids, type, data URL and provenance), `stale` and `by`; a
 * mark's `id`, `version`, `created`, `updated` and measurements. A request never sets these
 * (the scene and mark checks ignore them), so a document can only be trusted to hold them
 * in their shapes and sizes once this says so. Each fault names its path.
 */
import type { EditedFrom, LayerProvenance, PublishedOrigin, RemoteProvenance } from '../wire/provenance-types.ts';
import type { LayerResult, LayerStale } from '../wire/scene-types.ts';
import { isRecord } from '../wire/json-object.ts';
import type { AnnotationStamp } from '../annotations/annotation-record.ts';
import { createHostError } from '../errors.ts';

const RESULT_TYPES = ['mesh', 'volume', 'point_cloud', 'image'];
const HASH = /^[0-9a-f]{64}$/;
/** A data URL the host writes: a path of its own, at most this long. */
const MAX_URL = 2048;
/** A short text the host writes (a name, a version, a code): at most this many characters. */
const MAX_TEXT = 256;
/** A stale layer's detail, and a result's provenance as JSON, at most this many characters. */
const MAX_LONG_TEXT = 4096;
/** The edits an edited layer's version names, at most. */
const MAX_EDITS = 1_000_000;

const fault = (path: string, why: string) => createHostError('SPC_ERR_SCENE_INVALID', path, why);

function text(value: unknown, path: string, max = MAX_TEXT): string {
  if (typeof value !== 'string' || value.length > max) throw fault(path, `must be a text of at most ${max} characters`);
  return value;
}

function textOrNull(value: unknown, path: string): string | null {
  return value === null ? null : text(value, path);
}

function only(record: Record<string, unknown>, known: readonly string[], path: string): void {
  const extra = Object.keys(record).find((key) => !known.includes(key));
  if (extra !== undefined) throw fault(`${path}.${extra}`, `is not a field the host writes here (${known.join(', ')})`);
}

/** What published an array, as the host records it beside the array's layer. */
function publishedOf(value: unknown, path: string): PublishedOrigin {
  if (!isRecord(value)) throw fault(path, 'must be an object {specimen, sha256, client, user, published_at, source}');
  only(value, ['specimen', 'sha256', 'client', 'user', 'published_at', 'source'], path);
  if (typeof value.sha256 !== 'string' || !HASH.test(value.sha256)) throw fault(`${path}.sha256`, 'must be a SHA-256 (64 hexadecimal digits)');
  return {
    specimen: text(value.specimen, `${path}.specimen`),
    sha256: value.sha256,
    client: textOrNull(value.client, `${path}.client`),
    user: text(value.user, `${path}.user`),
    published_at: text(value.published_at, `${path}.published_at`),
    source: textOrNull(value.source, `${path}.source`),
  };
}

/** A result's provenance: what computed it, or what published the array it shows; an edited layer's version also names its base and edits. */
function provenanceOf(value: unknown, path: string): LayerProvenance {
  if (!isRecord(value)) throw fault(path, 'must be an object {plugin, version, bundle, function, params, host}, {published, host} or {remote, host}');
  const { base_result, edits, ...made } = value;
  if (base_result === undefined && edits === undefined) return madeOf(made, path);
  const edited = editedOf(base_result, edits, path);
  // Over a base nothing is known to have made (a file): only the base and the edits.
  return Object.keys(made).length === 0 ? edited : { ...madeOf(made, path), ...edited };
}

/** The base result's id and the edits (log seqs) over it, both or neither. */
function editedOf(base: unknown, edits: unknown, path: string): EditedFrom {
  if (typeof base !== 'string' || !HASH.test(base)) throw fault(`${path}.base_result`, 'must be a result id (64 hexadecimal digits)');
  if (!Array.isArray(edits) || edits.length > MAX_EDITS) throw fault(`${path}.edits`, `must be a list of at most ${MAX_EDITS} edit seqs`);
  const at = edits.findIndex((seq) => !Number.isSafeInteger(seq) || (seq as number) < 1);
  if (at >= 0) throw fault(`${path}.edits[${at}]`, 'must be a log seq (a whole number from 1)');
  return { base_result: base, edits: edits as number[] };
}

/** Keys a remote layer's provenance names at most (the chunks or shards of one level). */
const MAX_REMOTE_KEYS = 100_000;

/** The level of a remote image a layer read, and the version of each key read. */
function remoteOf(value: unknown, path: string): RemoteProvenance['remote'] {
  if (!isRecord(value)) throw fault(path, 'must be an object {name, path, level, level_path, shape, versions}');
  only(value, ['name', 'path', 'level', 'level_path', 'shape', 'versions'], path);
  if (!Number.isSafeInteger(value.level) || (value.level as number) < 0) throw fault(`${path}.level`, 'must be a level index (a whole number from 0)');
  const shape = value.shape;
  if (!Array.isArray(shape) || shape.length > 5 || !shape.every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw fault(`${path}.shape`, 'must be a list of at most 5 positive whole numbers');
  }
  const versions = value.versions;
  if (!isRecord(versions) || Object.keys(versions).length > MAX_REMOTE_KEYS) {
    throw fault(`${path}.versions`, `must be an object of at most ${MAX_REMOTE_KEYS} keys`);
  }
  for (const [key, version] of Object.entries(versions)) {
    if (key.length > MAX_URL) throw fault(`${path}.versions`, `names a key of more than ${MAX_URL} characters`);
    if (version !== null && (typeof version !== 'string' || version.length > MAX_TEXT)) {
      const why = `must be a version (an ETag or a date) of at most ${MAX_TEXT} characters, or null`;
      throw fault(`${path}.versions`, `'${key.slice(0, 80)}' ${why}`);
    }
  }
  return {
    name: text(value.name, `${path}.name`),
    path: text(value.path, `${path}.path`, MAX_URL),
    level: value.level as number,
    level_path: text(value.level_path, `${path}.level_path`),
    shape: shape as number[],
    versions: versions as Record<string, string | null>,
  };
}

/** What computed a result, or what published the array it shows, or which remote image it was read from. */
function madeOf(value: Record<string, unknown>, path: string): LayerProvenance {
  if ('remote' in value) {
    only(value, ['remote', 'host'], path);
    return { remote: remoteOf(value.remote, `${path}.remote`), host: text(value.host, `${path}.host`) };
  }
  if ('published' in value) {
    only(value, ['published', 'host'], path);
    return { published: publishedOf(value.published, `${path}.published`), host: text(value.host, `${path}.host`) };
  }
  only(value, ['plugin', 'version', 'bundle', 'function', 'params', 'host'], path);
  if (!isRecord(value.params)) throw fault(`${path}.params`, 'must be an object of parameter values');
  const bytes = JSON.stringify(value).length;
  if (bytes > MAX_LONG_TEXT) throw fault(path, `takes ${bytes} characters of JSON, more than ${MAX_LONG_TEXT}`);
  return {
    plugin: textOrNull(value.plugin, `${path}.plugin`),
    version: textOrNull(value.version, `${path}.version`),
    bundle: textOrNull(value.bundle, `${path}.bundle`),
    function: text(value.function, `${path}.function`),
    params: value.params,
    host: text(value.host, `${path}.host`),
  };
}

function resultOf(value: unknown, path: string): LayerResult {
  if (!isRecord(value)) throw fault(path, 'must be an object {result_id, type, data_url, blob_id, provenance, levels}');
  only(value, ['result_id', 'type', 'data_url', 'blob_id', 'provenance', 'levels'], path);
  if (typeof value.type !== 'string' || !RESULT_TYPES.includes(value.type)) throw fault(`${path}.type`, `must be one of ${RESULT_TYPES.join(', ')}`);
  const url = text(value.data_url, `${path}.data_url`, MAX_URL);
  if (!url.startsWith('/')) throw fault(`${path}.data_url`, "must be one of the host's own paths");
  const result: LayerResult = { type: value.type as LayerResult['type'], data_url: url };
  for (const key of ['result_id', 'blob_id'] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] !== 'string' || !HASH.test(value[key])) throw fault(`${path}.${key}`, 'must be a result id (64 hexadecimal digits)');
    result[key] = value[key];
  }
  if (value.provenance !== undefined) result.provenance = provenanceOf(value.provenance, `${path}.provenance`);
  if (value.levels !== undefined && value.levels !== true) throw fault(`${path}.levels`, 'must be true when present');
  if (value.levels === true) result.levels = true;
  return result;
}

function staleOf(value: unknown, path: string): LayerStale {
  if (!isRecord(value)) throw fault(path, 'must be an object {code, detail}');
  only(value, ['code', 'detail'], path);
  return { code: text(value.code, `${path}.code`), detail: text(value.detail, `${path}.detail`, MAX_LONG_TEXT) };
}

type LayerRecordFields = { result?: LayerResult; stale?: LayerStale; failed?: LayerStale; by?: string };

/** The host's fields of layer `record` at `path`, checked. @throws SPC_ERR_SCENE_INVALID naming the field. */
export function checkLayerRecord(record: Record<string, unknown>, path: string): LayerRecordFields {
  const fields: LayerRecordFields = {};
  if (record.result !== undefined) fields.result = resultOf(record.result, `${path}.result`);
  if (record.stale !== undefined) fields.stale = staleOf(record.stale, `${path}.stale`);
  if (record.failed !== undefined) fields.failed = staleOf(record.failed, `${path}.failed`);
  if (record.by !== undefined) fields.by = text(record.by, `${path}.by`);
  return fields;
}

const markFault = (path: string, why: string) => createHostError('SPC_ERR_ANNOTATION_INVALID', path, why);

function whole(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw markFault(path, 'must be a whole number from 0');
  return value as number;
}

/** The host's fields of mark `record` at `path`, checked. @throws SPC_ERR_ANNOTATION_INVALID naming the field. */
export function checkMarkStamp(record: Record<string, unknown>, path: string): AnnotationStamp {
  const id = record.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) throw markFault(`${path}.id`, 'must be a mark id (1 to 64 characters)');
  for (const key of ['length', 'volume']) {
    const value = record[key];
    const fine = value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
    if (!fine) throw markFault(`${path}.${key}`, 'must be a finite number from 0');
  }
  return {
    id,
    version: whole(record.version, `${path}.version`),
    created: whole(record.created, `${path}.created`),
    updated: whole(record.updated, `${path}.updated`),
  };
}
