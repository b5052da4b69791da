/**
 * @module remote-zarr-store
 * A remote OME-Zarr image as zarrita's store: every key zarrita asks for (`/zarr.json`,
 * `/0/.zarray`, a chunk, a range of a shard) is read through RemoteReads, inside the image's
 * remote. Metadata documents are read fresh and their version (ETag or Last-Modified)
 * remembered; a chunk is kept in the remote cache under its own version (RemoteReads), or
 * under its array's when the remote gives it none.
 */
import type { AbsolutePath, AsyncReadable, GetOptions, RangeQuery } from '@zarrita/storage';
import type { RemoteList, RemoteTarget } from './remote-list.ts';
import type { RemoteReads } from './remote-reads.ts';
import { versionOf, type RemoteBytes } from './remote-bytes.ts';

/** The keys of metadata documents: read fresh every time, never kept. */
export const METADATA = /(^|\/)(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/;

export class RemoteZarrStore implements AsyncReadable {
  /** The version of each metadata document read (by its key), and every document read with it. */
  readonly versions = new Map<string, string | null>();
  /** Metadata documents read by this store, so that opening an array does not read its document twice. */
  readonly #documents = new Map<string, Uint8Array>();
  /** The version of each chunk (or shard) read, by its key: null when the remote had none. */
  readonly #chunkVersions = new Map<string, string | null>();

  constructor(
    readonly reads: RemoteReads,
    readonly list: RemoteList,
    readonly root: RemoteTarget,
  ) {}

  #target(key: AbsolutePath): RemoteTarget {
    return this.list.target(this.root.remote, `${this.root.path}${key}`);
  }

  /** The version of the array `key` belongs to (its metadata document's): chunks the remote gives no version of are kept under it. */
  #chunkVersion(key: string): string {
    let best = '';
    let version: string | null = null;
    for (const [doc, v] of this.versions) {
      const folder = doc.replace(METADATA, '');
      if (key.startsWith(folder) && folder.length >= best.length) [best, version] = [folder, v];
    }
    return version ?? 'unversioned';
  }

  async get(key: AbsolutePath, opts?: GetOptions): Promise<Uint8Array | undefined> {
    if (METADATA.test(key)) {
      const kept = this.#documents.get(key);
      if (kept) return kept;
      const read = await this.reads.read(this.#target(key), undefined, null, opts?.signal);
      if (read) {
        this.versions.set(key, versionOf(read));
        this.#documents.set(key, read.bytes);
      }
      return read?.bytes;
    }
    return this.#chunk(key, undefined, opts);
  }

  async getRange(key: AbsolutePath, range: RangeQuery, opts?: GetOptions): Promise<Uint8Array | undefined> {
    return this.#chunk(key, range, opts);
  }

  async #chunk(key: AbsolutePath, range: RangeQuery | undefined, opts: GetOptions | undefined): Promise<Uint8Array | undefined> {
    const read = await this.reads.read(this.#target(key), range, this.#chunkVersion(key), opts?.signal);
    this.#chunkVersions.set(key, read ? (versionOf(read) ?? '') : null);
    return read?.bytes;
  }

  /**
   * Key `key` of the image (a range of it when asked) as the remote has it, for a reader of the
   * image's own store through the host: a metadata document read afresh, a chunk or shard
   * through the cache as any chunk read is. What it reads is not counted among the keys a level
   * read (versionsOf): it is some viewer's, not a level's.
   */
  async inPlace(key: AbsolutePath, range: RangeQuery | undefined, signal?: AbortSignal): Promise<RemoteBytes | undefined> {
    return this.reads.read(this.#target(key), range, METADATA.test(key) ? null : this.#chunkVersion(key), signal);
  }

  /**
   * The version the remote gave each key of level `levelPath` read so far, its own metadata
   * document's and the image's root document's with them, by the key's path inside the remote
   * (`x.ome.zarr/0/c/0/0/0`): null for a key the remote did not have, '' for one it gave no
   * version. A kept read keeps the version it was read with.
   */
  versionsOf(levelPath: string): Record<string, string | null> {
    const folder = `/${levelPath}/`;
    const out: Record<string, string | null> = {};
    const named = (key: string) => (this.root.path ? `${this.root.path}${key}` : key.slice(1));
    for (const [key, version] of this.versions) {
      if (key.startsWith(folder) || key.lastIndexOf('/') === 0) out[named(key)] = version ?? '';
    }
    for (const [key, version] of this.#chunkVersions) if (key.startsWith(folder)) out[named(key)] = version;
    return out;
  }
}
