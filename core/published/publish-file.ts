/**
 * @module publish-file
 * Publishing a parsed file under a specimen id, whoever asks (`PUT /api/specimens/{id}` or an
 * agent's `publish_from_upload`): the id must be free or already published, the file must fit
 * the host's byte budget, and the answer is the specimen's metadata as `GET` shows it.
 */
import { actingUser } from '../events/acting-user.ts';
import { ANONYMOUS } from '../people/request-user.ts';
import { createHash } from 'node:crypto';
import { isValidSpecimenId } from '../catalog/specimen-id.ts';
import { createHostError } from '../errors.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { UploadStore } from '../uploads/upload-store.ts';
import type { PublishedSpecimens } from './published-specimens.ts';
import { toSpecimenMetadata } from '../registry/specimen-views.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { PublishedMeta } from './published-record.ts';
import { PUBLISH_BODY_FIELDS, readPublishFields, type PublishFields } from './publish-input.ts';
import { resultAsFile } from './upload-as-file.ts';
import { checkedLabels } from '../results/label-fields.ts';
import { AxesFieldError, checkAxesFields } from '../results/volume-axes.ts';
import { VOLUME_FIELD_NAMES, type VolumeFieldsInput } from '../results/volume-fields-input.ts';
import { checkPublishInto, checkSpecimenUse } from '../people/specimen-access.ts';

/** What publishing uses of the host. */
export interface PublishDeps {
  options: Pick<ResolvedHostOptions, 'cacheMaxBytes'>;
  functions: FunctionRegistry;
  catalog: SpecimenCatalog;
  uploads: UploadStore | null;
  published: PublishedSpecimens;
}

export interface PublishedFile {
  bytes: Buffer;
  fileName: string;
  result: StoredResult;
  fields: PublishFields;
  /** The client that sent it, as its User-Agent names it (never a field the client fills in). */
  client?: string | null;
}

const bad = (why: string) => createHostError('SPC_ERR_PUBLISH_INVALID', why);

/** Words of the API's own routes under /api/specimens/: a specimen of that id could never be reached. */
const ROUTE_WORDS = new Set(['reload']);

/** @throws SPC_ERR_PUBLISH_INVALID unless `id` can name a specimen. */
export function checkSpecimenId(id: string): void {
  if (!isValidSpecimenId(id))
    throw bad(`'${String(id).slice(0, 200)}' is not a specimen id (letters, digits, '.', '_' and '-', starting with a letter or digit)`);
  if (ROUTE_WORDS.has(id.toLowerCase())) throw bad(`'${id}' is a word of the host's routes (GET /api/specimens/${id.toLowerCase()}): publish under another id`);
}

/**
 * Refuses an id that names a specimen from anywhere but publishing, or that differs only by
 * case from a specimen's id (two such ids would be confused by people, links and
 * case-insensitive file systems).
 */
export function checkPublishable(ctx: PublishDeps, id: string): void {
  const existing = ctx.catalog.get(id);
  if (existing && existing.origin !== 'published')
    throw createHostError('SPC_ERR_PUBLISH_CONFLICT', id, existing.origin === 'disk' ? 'specimens directory' : existing.origin);
  const folded = id.toLowerCase();
  const twin = existing ? undefined : ctx.catalog.list().find((record) => record.id.toLowerCase() === folded);
  if (twin) throw createHostError('SPC_ERR_PUBLISH_CASE_CLASH', id, twin.id);
}

/**
 * The file of an upload named in a JSON body (`{"upload": id, ...fields}`), written back as a
 * file named after `id`. Fields may also come from `query` (the body's win).
 */
export async function fileFromUpload(ctx: PublishDeps, id: string, body: unknown, query: Record<string, unknown> = {}): Promise<PublishedFile> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw bad('send the file as application/octet-stream with ?filename=NAME, or a JSON object {"upload": upload_id}');
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !PUBLISH_BODY_FIELDS.has(key));
  if (unknown !== undefined) throw bad(`unknown field '${unknown}' (fields: ${[...PUBLISH_BODY_FIELDS].join(', ')})`);
  if (typeof record.upload !== 'string' || record.upload === '') throw bad("a JSON body needs 'upload' (an upload id from POST /api/uploads)");
  if (!ctx.uploads) throw createHostError('SPC_ERR_UPLOADS_OFF');
  const { filename: _ignored, ...queryFields } = query;
  const fields = readPublishFields({ ...queryFields, ...record });
  const result = await ctx.uploads.get(record.upload);
  if (!result) throw bad(`upload '${record.upload}' does not exist (or has expired)`);
  const { bytes, fileName } = await resultAsFile(result, id);
  return { bytes, fileName, result, fields };
}

/** `role=labels` on anything but a uint8, uint16 or uint32 volume is refused, naming `role`. */
function labelsOf(file: PublishedFile): PublishedMeta['labels'] {
  const { fields, result } = file;
  if (!fields.labels) return undefined;
  if (result.type !== 'volume') throw bad(`'role' labels needs a volume (a .npy file), not a ${result.type.replace('_', ' ')}`);
  return checkedLabels(fields.labels, result.dtype, (why) => bad(`'role' labels: ${why}`));
}

/**
 * What a published volume says of its unit, time and channels: its result's, with what the
 * request says on top, checked against its shape (a 400 naming the field that does not fit).
 */
function describedOf(file: PublishedFile): VolumeFieldsInput {
  const { result, fields } = file;
  if (result.type !== 'volume') return {};
  const own = Object.fromEntries(VOLUME_FIELD_NAMES.filter((name) => result[name] !== undefined).map((name) => [name, result[name]]));
  const described = { ...own, ...fields.described } as VolumeFieldsInput;
  try {
    checkAxesFields({ ...described, spacing: fields.spacing ?? result.spacing, origin: fields.origin ?? result.origin }, result.shape);
  } catch (error) {
    if (error instanceof AxesFieldError) throw bad(`'${error.field}': ${error.message}`);
    throw error;
  }
  return described;
}

function metaOf(id: string, file: PublishedFile, ttlMs: number): PublishedMeta {
  const now = Date.now();
  const { fields, result } = file;
  const labels = labelsOf(file);
  const spacing = fields.spacing ?? (result.type === 'volume' ? result.spacing : undefined);
  const origin = fields.origin ?? (result.type === 'volume' ? result.origin : undefined);
  return {
    id,
    display_name: fields.display_name ?? id,
    description: fields.description ?? '',
    tags: fields.tags ?? [],
    type: result.type,
    file_name: file.fileName,
    sha: createHash('sha256').update(file.bytes).digest('hex'),
    bytes: file.bytes.length,
    published_at: now,
    expires_at: now + ttlMs,
    ...(spacing ? { spacing: [...spacing] } : {}),
    ...(origin ? { origin: [...origin] } : {}),
    ...(labels ? { labels } : {}),
    ...(fields.room !== undefined ? { room: fields.room } : {}),
    ...describedOf(file),
    by: { user: actingUser() ?? ANONYMOUS, client: file.client ?? null, source: fields.source ?? null },
  };
}

/** Publishes `file` as `id`: whether it replaced a published specimen, and the specimen's metadata. */
export async function publishFile(ctx: PublishDeps, id: string, file: PublishedFile): Promise<{ replaced: boolean; metadata: Record<string, unknown> }> {
  const published = ctx.published;
  if (!published.fits(file.bytes.length)) throw createHostError('SPC_ERR_PUBLISH_TOO_LARGE', String(file.bytes.length), String(ctx.options.cacheMaxBytes));
  // Checked again: a specimen of that id may have come from elsewhere while the file arrived.
  checkPublishable(ctx, id);
  // Publishing over a room's specimen changes it, and publishing for a room writes to it; what
  // replaces a room's specimen stays that room's unless it names another.
  const existing = ctx.catalog.get(id);
  await checkSpecimenUse(existing, true);
  await checkPublishInto(file.fields.room);
  const room = file.fields.room ?? (existing?.origin === 'published' ? existing.room : undefined);
  const replaced = await published.publish(metaOf(id, { ...file, fields: { ...file.fields, room } }, published.ttlMs), file.bytes);
  const record = ctx.catalog.get(id);
  if (!record) throw createHostError('SPC_ERR_SPECIMEN_NOT_FOUND', id);
  return { replaced, metadata: { ...toSpecimenMetadata(ctx, record), expires_in: Math.round(published.ttlMs / 1000) } };
}
