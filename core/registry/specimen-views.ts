/**
 * @module specimen-views
 * Wire shapes of specimens: the catalog entry and the full metadata. They return the client's
 * wire types (core/wire/wire-types.ts), so a drift between host and client fails typecheck.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { CatalogEntry, ParameterSchema, SpecimenMetadata } from '../wire/wire-types.ts';
import { bundleOf } from './function-entry.ts';
import { specimenSchema, specimenType } from './specimen-functions.ts';

/** What a view needs of the host: the functions that dynamic specimens name. */
export type SpecimenViewDeps = { functions: Parameters<typeof specimenType>[0] };

function thumbnailUrl(id: string): string {
  return `/api/specimens/${encodeURIComponent(id)}/thumbnail`;
}

export function toCatalogEntry(ctx: SpecimenViewDeps, record: SpecimenRecord): CatalogEntry {
  const entry: CatalogEntry = {
    id: record.id,
    display_name: record.display_name,
    description: record.description,
    type: specimenType(ctx.functions, record),
    tags: record.tags,
    is_dynamic: record.is_dynamic,
    function_name: record.function_name,
    thumbnail_url: thumbnailUrl(record.id),
  };
  if (record.data?.kind === 'npy' && record.data.labels) entry.labels = true;
  const fn = record.origin === 'plugin' && record.function_name ? ctx.functions.get(record.function_name) : undefined;
  const bundle = fn ? bundleOf(fn) : null;
  if (fn && bundle) Object.assign(entry, { plugin: fn.plugin, version: bundle.version, ...(record.signature ? { signature: record.signature } : {}) });
  if (record.room !== undefined) entry.room = record.room;
  return entry;
}

export function toSpecimenMetadata(ctx: SpecimenViewDeps, record: SpecimenRecord): SpecimenMetadata {
  const metadata: SpecimenMetadata = {
    ...toCatalogEntry(ctx, record),
    thumbnail_file: record.thumbnail_file,
    story: record.story,
    // Clients of the reference format read the story as a list of paragraphs.
    story_text: record.story ? record.story.split('\n\n') : [],
    data_file: record.data && record.data.kind !== 'remote' ? record.data.fileName : null,
    schema: record.is_dynamic ? (specimenSchema(ctx.functions, record) as unknown as ParameterSchema) : null,
  };
  if (record.worker_id) metadata.worker_id = record.worker_id;
  if (record.color) metadata.color = record.color;
  return metadata;
}
