/**
 * @module session-specimens
 * The published specimens a session file carries, so its layers work on the host that takes it
 * in. Saving a snapshot as a file: each published specimen a layer (or an input of its
 * function) names, that the one saving may read, goes along as its own file and what its
 * publisher said of it. Taking one in: each carried file is published here under the same id,
 * for the same room (so it follows that room's access here), through the same checks as any
 * publish (its fields, its parse, the byte budget, a write of its room), keeping the client and
 * the `source` it was published with; the one taking it in is who publishes it here. A specimen
 * this host already has is kept: the same bytes are the same specimen, and other bytes (or a
 * specimen of another kind under that id) stay this host's own, each said in the answer: its
 * layers show what this host has, and verifying them says whether that is the same.
 */
import { open, readFile } from 'node:fs/promises';
import { createHostError, isHostError } from '../../errors.ts';
import type { SpecimenRecord } from '../../catalog/specimen-record.ts';
import type { ResolvedHostOptions } from '../../options.ts';
import type { CarriedSpecimen, SessionSpecimenFile } from '../session-layout.ts';
import type { ParseFn } from '../../workers/file-parser.ts';
import { VOLUME_FIELD_NAMES } from '../../results/volume-fields-input.ts';
import { checkSpecimenUse } from '../../people/specimen-access.ts';
import { parseFileBody } from '../../published/file-body.ts';
import { checkSpecimenId, publishFile, type PublishDeps } from '../../published/publish-file.ts';
import { readPublishFields } from '../../published/publish-input.ts';
import type { PublishedMeta } from '../../published/published-record.ts';

/** A specimen a session carried that this host kept its own of, and why. */
export interface KeptOwn {
  specimen: string;
  detail: string;
}

/** The published specimens of session files: those a snapshot names, to save; those a file carries, to take in. */
export interface SessionSpecimens {
  of(ids: Iterable<string>): Promise<CarriedSpecimen[]>;
  takeIn(files: readonly SessionSpecimenFile[]): Promise<KeptOwn[]>;
}

/** What carrying published specimens reads of the host. */
export type SessionSpecimenDeps = PublishDeps & {
  files: { parse: ParseFn };
  options: Pick<ResolvedHostOptions, 'cacheMaxBytes' | 'maxUploadBytes'>;
};

/** What a session carries of `meta` besides its file: what was said when it was published. */
function headerOf(meta: PublishedMeta): Record<string, unknown> {
  const { id, file_name, sha, display_name, description, tags, spacing, origin, labels, room, by } = meta;
  const described = Object.fromEntries(VOLUME_FIELD_NAMES.filter((name) => meta[name] !== undefined).map((name) => [name, meta[name]]));
  return {
    id,
    file_name,
    sha,
    display_name,
    description,
    tags,
    ...(spacing ? { spacing } : {}),
    ...(origin ? { origin } : {}),
    ...(labels ? { role: 'labels', label_names: labels.label_names, label_colors: labels.label_colors } : {}),
    ...(room !== undefined ? { room } : {}),
    ...described,
    ...(by?.source ? { source: by.source } : {}),
    ...(by?.client ? { client: by.client } : {}),
  };
}

/** Whether the request being served may read `record` (a room's specimen follows its room). */
async function readable(record: SpecimenRecord): Promise<boolean> {
  try {
    await checkSpecimenUse(record);
    return true;
  } catch (error) {
    if (isHostError(error)) return false;
    throw error;
  }
}

/** The published files among `ids` (the specimens a snapshot names) that the one asking may read, to go in its session file. */
export async function carriedSpecimens(deps: SessionSpecimenDeps, ids: Iterable<string>): Promise<CarriedSpecimen[]> {
  await deps.published.refresh();
  const carried: CarriedSpecimen[] = [];
  for (const id of new Set(ids)) {
    const record = deps.catalog.get(id);
    const meta = deps.published.get(id);
    const data = record?.data;
    if (record?.origin !== 'published' || !meta || !data || !('path' in data) || !(await readable(record))) continue;
    carried.push({ id, header: headerOf(meta), bytes: await readFile(data.path) });
  }
  return carried;
}

/** The `length` bytes of a carried file where it lies. */
async function bytesOf(carried: SessionSpecimenFile): Promise<Buffer> {
  const handle = await open(carried.file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(carried.length);
    const { bytesRead } = await handle.read(bytes, 0, carried.length, carried.offset);
    if (bytesRead !== carried.length) throw createHostError('SPC_ERR_SESSION_INVALID', `specimen '${carried.id}' ends before its ${carried.length} bytes`);
    return bytes;
  } finally {
    await handle.close();
  }
}

/** Why this host keeps its own `record` over a carried file of sha `sha`; null when it is the same file. */
function keptOwnBecause(record: SpecimenRecord, sha: string): string | null {
  if (record.origin !== 'published')
    return `this host has a specimen '${record.id}' of its own (${record.origin === 'disk' ? 'specimens directory' : record.origin}): its layers show that one`;
  if (record.published?.sha256 === sha) return null;
  const own = record.published?.sha256.slice(0, 12);
  return `this host publishes other bytes under '${record.id}' (sha256 ${own}, the file carried ${sha.slice(0, 12)}): its layers show this host's`;
}

/**
 * Publishes `bytes` here as `id` with what `header` says of them (what their publisher said:
 * a carried file's header, or a room's array copied into another room).
 */
export async function publishSaid(deps: SessionSpecimenDeps, id: string, header: Record<string, unknown>, bytes: Buffer): Promise<void> {
  const { id: _id, sha: _sha, file_name: fileName, client, ...said } = header;
  checkSpecimenId(id);
  if (typeof fileName !== 'string' || fileName === '' || fileName.length > 200 || /[/\\]/.test(fileName) || fileName.startsWith('.'))
    throw createHostError('SPC_ERR_SESSION_INVALID', `specimen '${id}' has no usable 'file_name'`);
  const fields = readPublishFields(said);
  if (bytes.length > deps.options.maxUploadBytes) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(deps.options.maxUploadBytes));
  const geometry = { ...fields.described, spacing: fields.spacing ?? null, origin: fields.origin ?? null };
  // The parse takes what it is given to its thread (it is gone from here after): it gets a copy.
  const result = await parseFileBody(deps.files.parse, Buffer.from(bytes), fileName, deps.options.maxUploadBytes, geometry);
  await publishFile(deps, id, { bytes, fileName, result, fields, client: typeof client === 'string' ? client.slice(0, 200) : null });
}

/** Publishes `carried` here as its publisher did there. */
async function publishCarried(deps: SessionSpecimenDeps, carried: SessionSpecimenFile): Promise<void> {
  checkSpecimenId(carried.id);
  if (carried.length > deps.options.maxUploadBytes) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(deps.options.maxUploadBytes));
  await publishSaid(deps, carried.id, carried.header, await bytesOf(carried));
}

/**
 * Publishes each carried file this host lacks; keeps what it has. Answers what it kept of its
 * own where the session carried other bytes. @throws what publishing it would (a room the one
 * taking it in may not write, the byte budget, a file that does not parse).
 */
export async function takeInSpecimens(deps: SessionSpecimenDeps, carried: readonly SessionSpecimenFile[]): Promise<KeptOwn[]> {
  if (carried.length === 0) return [];
  await deps.published.refresh();
  const kept: KeptOwn[] = [];
  for (const file of carried) {
    const record = deps.catalog.get(file.id);
    // One the asker may not read is passed by unsaid: its room's name is not confirmed.
    if (record && !(await readable(record))) continue;
    const because = record ? keptOwnBecause(record, file.sha) : null;
    if (because) kept.push({ specimen: file.id, detail: because });
    if (record) continue;
    try {
      await publishCarried(deps, file);
    } catch (error) {
      if (!isHostError(error) || error.code !== 'SPC_ERR_PUBLISH_CASE_CLASH') throw error;
      kept.push({ specimen: file.id, detail: error.message });
    }
  }
  return kept;
}

/** The session specimens of the host `deps` describes. */
export function sessionSpecimens(deps: SessionSpecimenDeps): SessionSpecimens {
  return { of: (ids) => carriedSpecimens(deps, ids), takeIn: (files) => takeInSpecimens(deps, files) };
}
