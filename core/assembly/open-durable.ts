/**
 * @module open-durable
 * A lone host's data folder opened for its stores (`--data-dir`): the embedded store and the
 * blob store over its folder of bytes, loaded only when a folder is given, so a host in memory
 * or on a Redis service never loads the engine.
 */
import type { DiskBlobStore } from '../blobs/disk-blob-store.ts';
import type { DataStore } from '../durable/data-store.ts';
import type { ResolvedHostOptions } from '../options.ts';

export interface DurableData {
  store: DataStore;
  /** Results kept by their id (snapshots' pins, uploads). */
  blobs: DiskBlobStore;
}

/** The data folder this host keeps its work in: null without one, on a Redis service and for a worker (they keep nothing on disk). */
export function lastingDataDir(options: Pick<ResolvedHostOptions, 'dataDir' | 'redis' | 'mode'>): string | null {
  return !options.dataDir || options.redis || options.mode === 'worker' ? null : options.dataDir;
}

/**
 * The folder's stores, or null when this host keeps nothing on disk (no folder, a Redis service,
 * a worker). `warn` hears of bytes found damaged on disk.
 */
export async function openDurable(
  options: Pick<ResolvedHostOptions, 'dataDir' | 'redis' | 'mode'>,
  warn?: (line: string) => void,
): Promise<DurableData | null> {
  const dataDir = lastingDataDir(options);
  if (!dataDir) return null;
  const [{ openDataStore }, { DiskBlobStore }] = await Promise.all([import('../durable/data-store.ts'), import('../blobs/disk-blob-store.ts')]);
  const store = await openDataStore(dataDir);
  return { store, blobs: new DiskBlobStore(store, Date.now, warn) };
}
