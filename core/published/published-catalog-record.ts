/**
 * @module published-catalog-record
 * A published specimen as the catalog lists it: a static file specimen whose file is where this
 * host keeps it, a `.npy` volume with its geometry, unit, time and channels, a thumbnail made
 * from the file, and the room it was published for.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { VOLUME_FIELD_NAMES, type VolumeFieldsInput } from '../results/volume-fields-input.ts';
import type { PublishedMeta } from './published-record.ts';
import { publishedThumbnail } from './published-thumbnail.ts';
import { ANONYMOUS } from '../people/request-user.ts';

/** What a published volume says of its time, channels and unit, as its data source carries it. */
function describedOf(meta: PublishedMeta): { described?: VolumeFieldsInput } {
  const described = Object.fromEntries(VOLUME_FIELD_NAMES.filter((name) => meta[name] !== undefined).map((name) => [name, meta[name]]));
  return Object.keys(described).length > 0 ? { described } : {};
}

/** The catalog record of a published specimen whose file is at `file`. */
export function publishedRecord(meta: PublishedMeta, file: string): SpecimenRecord {
  const data: SpecimenRecord['data'] =
    meta.type === 'volume' && meta.file_name.toLowerCase().endsWith('.npy')
      ? {
          kind: 'npy',
          path: file,
          fileName: meta.file_name,
          ...(meta.spacing ? { spacing: meta.spacing } : {}),
          ...(meta.origin ? { origin: meta.origin } : {}),
          ...(meta.labels ? { labels: meta.labels } : {}),
          ...describedOf(meta),
        }
      : { kind: 'file', path: file, fileName: meta.file_name };
  return {
    id: meta.id,
    display_name: meta.display_name,
    description: meta.description,
    type: meta.type,
    tags: meta.tags,
    is_dynamic: false,
    function_name: null,
    thumbnail_file: null,
    thumbnail: publishedThumbnail(meta, file),
    story: null,
    data,
    origin: 'published',
    ...(meta.room !== undefined ? { room: meta.room } : {}),
    published: {
      specimen: meta.id,
      sha256: meta.sha,
      client: meta.by?.client ?? null,
      user: meta.by?.user ?? ANONYMOUS,
      published_at: new Date(meta.published_at).toISOString(),
      source: meta.by?.source ?? null,
    },
  };
}
