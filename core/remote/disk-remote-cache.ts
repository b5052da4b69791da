/**
 * @module disk-remote-cache
 * Remote reads a lone host keeps in its data folder, among its computed results
 * (`--disk-cache-max-bytes`, least recently used dropped first): each read is a kept result,
 * named by its cache key in a slot of its own, so a host started again on the folder finds it
 * without asking the remote.
 */
import type { DiskKeptResults } from '../blobs/disk-kept-results.ts';
import type { RemoteBytes } from './remote-bytes.ts';
import { keptRead, readOfKept, type RemoteCache } from './remote-cache.ts';

/** The slot reads are named in: no room's id can hold a NUL. */
const SLOT = '\u0000remote-reads';

export class DiskRemoteCache implements RemoteCache {
  #kept: DiskKeptResults;

  constructor(kept: DiskKeptResults) {
    this.#kept = kept;
  }

  async get(key: string): Promise<RemoteBytes | undefined> {
    return readOfKept(await this.#kept.recall({ slotId: SLOT, key }));
  }

  async set(key: string, value: RemoteBytes): Promise<void> {
    await this.#kept.keep(keptRead(value), { slotId: SLOT, key });
  }
}
