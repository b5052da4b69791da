/**
 * @module remote-image
 * A remote OME-Zarr image opened in place: only its metadata is read (the root document, then
 * every level's array metadata, in parallel), and each level is a zarrita array over the
 * remote store, which reads the chunks (or shard ranges) a selection covers when asked. v0.5
 * (Zarr v3, `zarr.json` with `ome`) is tried first, then v0.4 (Zarr v2, `.zattrs`).
 */
import * as zarr from 'zarrita';
import type { DType } from '../envelope/dtypes.ts';
import { createHostError } from '../errors.ts';
import { checkArrayMetadata, parseDocument, readImageMetadata, type ImageAxes } from './ngff-metadata.ts';
import type { RemoteList, RemoteTarget } from './remote-list.ts';
import type { RemoteReads } from './remote-reads.ts';
import { RemoteZarrStore } from './remote-zarr-store.ts';

export type LevelArray = zarr.Array<zarr.NumberDataType, RemoteZarrStore>;

export interface RemoteLevel {
  path: string;
  shape: number[];
  /** Level 0's voxel (and time step) along every axis, times this level's reduction. */
  scale: number[] | null;
  translation: number[] | null;
  array: LevelArray;
}

export interface RemoteImage {
  target: RemoteTarget;
  /** 2 (OME-Zarr v0.4) or 3 (v0.5). */
  zarrFormat: 2 | 3;
  axes: ImageAxes;
  dtype: DType;
  labels: boolean;
  name: string | null;
  levels: RemoteLevel[];
  store: RemoteZarrStore;
}

/** The key a 400 or 502 names: the remote's name and the path of the document. */
function keyOf(target: RemoteTarget, doc: string): string {
  return `${target.remote.name}/${target.path ? `${target.path}/` : ''}${doc}`;
}

/** The root attributes and Zarr version of the image at `store`. */
async function rootOf(store: RemoteZarrStore, target: RemoteTarget): Promise<{ attributes: Record<string, unknown>; format: 2 | 3; key: string }> {
  const v3 = await store.get('/zarr.json');
  if (v3) {
    const key = keyOf(target, 'zarr.json');
    const doc = parseDocument(v3, key);
    const attributes = (doc.attributes ?? {}) as Record<string, unknown>;
    // v0.5 keeps its metadata under `ome`; a v3 store may still carry v0.4's keys at the top.
    const ome = typeof attributes.ome === 'object' && attributes.ome !== null ? (attributes.ome as Record<string, unknown>) : attributes;
    return { attributes: ome, format: 3, key };
  }
  const v2 = await store.get('/.zattrs');
  if (!v2) throw createHostError('SPC_ERR_REMOTE_UNREADABLE', keyOf(target, 'zarr.json'), 'neither zarr.json (OME-Zarr v0.5) nor .zattrs (v0.4) is there');
  const key = keyOf(target, '.zattrs');
  return { attributes: parseDocument(v2, key), format: 2, key };
}

/** Opens the image `reference` (`NAME/path`) of the host's remotes, reading its metadata only. */
export async function openRemoteImage(reads: RemoteReads, list: RemoteList, reference: string): Promise<RemoteImage> {
  const target = list.resolve(reference);
  const store = new RemoteZarrStore(reads, list, target);
  const root = await rootOf(store, target);
  const meta = readImageMetadata(root.attributes, root.key);
  const doc = root.format === 3 ? 'zarr.json' : '.zarray';
  const levels = await Promise.all(
    meta.datasets.map(async (dataset) => {
      const key = keyOf(target, `${dataset.path}/${doc}`);
      const path = `/${list.target(target.remote, dataset.path).path}` as zarr.AbsolutePath;
      const bytes = await store.get(`${path}/${doc}` as zarr.AbsolutePath);
      if (!bytes) throw createHostError('SPC_ERR_REMOTE_UNREADABLE', key, 'the multiscales list it, but the remote has no such key');
      const { dtype, shape } = checkArrayMetadata(parseDocument(bytes, key), key, meta.axes.length);
      const location = zarr.root(store).resolve(path);
      const opening = root.format === 3 ? zarr.open.v3(location, { kind: 'array' }) : zarr.open.v2(location, { kind: 'array', attrs: false });
      const array = (await opening) as LevelArray;
      return { path: dataset.path, shape, dtype, scale: dataset.scale, translation: dataset.translation, array };
    }),
  );
  const dtype = levels[0]!.dtype;
  const other = levels.find((level) => level.dtype !== dtype);
  if (other) {
    throw createHostError('SPC_ERR_REMOTE_UNREADABLE', keyOf(target, `${other.path}/${doc}`), `its dtype ${other.dtype} differs from level 0's ${dtype}`);
  }
  return {
    target,
    zarrFormat: root.format,
    axes: meta.axes,
    dtype,
    labels: meta.labels,
    name: meta.name,
    levels: levels.map(({ dtype: _dtype, ...level }) => level),
    store,
  };
}
