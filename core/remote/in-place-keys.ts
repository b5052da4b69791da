/**
 * @module in-place-keys
 * Which keys of a remote image a reader may ask through the host (the image's own store served
 * at `/api/specimens/{id}/zarr/`): the root's metadata documents, and under each level the
 * host opened, that array's metadata documents and its chunk (or shard) keys, in either Zarr
 * version's spelling. Nothing else under the image's folder (other files, other groups) is
 * read on a reader's behalf.
 */
import type { RemoteImage } from './remote-image.ts';

const ROOT_DOCUMENTS = new Set(['zarr.json', '.zattrs', '.zgroup']);
const ARRAY_DOCUMENTS = new Set(['zarr.json', '.zarray', '.zattrs']);
/** `c/0/0/0` or `c.0.0.0` (Zarr v3's default encoding), `0/0/0` or `0.0.0` (v2's, and v3's `v2` encoding), `c` for no dimensions. */
const CHUNK_KEY = /^(c|(c[./])?\d{1,9}([./]\d{1,9})*)$/;

/** Whether `key` (relative to the image's root, no leading slash) is one a reader may ask. */
export function inPlaceKey(image: Pick<RemoteImage, 'levels'>, key: string): boolean {
  if (ROOT_DOCUMENTS.has(key)) return true;
  return image.levels.some((level) => {
    if (!key.startsWith(`${level.path}/`)) return false;
    const rest = key.slice(level.path.length + 1);
    return ARRAY_DOCUMENTS.has(rest) || CHUNK_KEY.test(rest);
  });
}
