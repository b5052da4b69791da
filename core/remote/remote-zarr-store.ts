/**
 * @module remote-zarr-store
 * A remote OME-Zarr image as zarrita's store: every key zarrita asks for (`/zarr.json`,
 * `/0/.zarray`, a chunk, a range of a shard) is read through RemoteReads, inside the image's
 * remote. Metadata documents are read fresh and their version (ETag or Last-Modified)
 * remembered; a chunk is kept in the remote cache under the version of the array it belongs
 * to, so a changed array is read again.
 */
import type { AbsolutePath, AsyncReadable, GetOptions, RangeQuery } from '@zarrita/storage';
import type { RemoteList, RemoteTarget } from './remote-list.ts';
import type { RemoteReads } from './remote-reads.ts';
import { versionOf } from './remote-bytes.ts';

const METADATA = /(^|\/)(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/;

export class RemoteZarrStore implements AsyncReadable {
  /** The version of each metadata document read (by its key), and every document read with it. */
  readonly versions = new Map<string, string | null>();
  /** Metadata documents read by this store, so that opening an array does not read its document twice. */
  readonly #documents = new Map<string, Uint8Array>();

  constructor(
    readonly reads: RemoteReads,
    readonly list: RemoteList,
    readonly root: RemoteTarget,
  ) {}

  #target(key: AbsolutePath): RemoteTarget {
    return this.list.target(this.root.remote, `${this.root.path}${key}`);
  }

  /** The version chunks under `key` are kept with: that of their array's metadata document. */
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
    return (await this.reads.read(this.#target(key), undefined, this.#chunkVersion(key), opts?.signal))?.bytes;
  }

  async getRange(key: AbsolutePath, range: RangeQuery, opts?: GetOptions): Promise<Uint8Array | undefined> {
    return (await this.reads.read(this.#target(key), range, this.#chunkVersion(key), opts?.signal))?.bytes;
  }
}
