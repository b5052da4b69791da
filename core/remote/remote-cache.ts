/**
 * @module remote-cache
 * Where bytes read from a remote are kept, so that a second viewer of the same view reads
 * nothing from the remote. An entry's key names the URL, the byte range and the version the
 * remote gave the array it belongs to (its ETag, else its Last-Modified): a remote that
 * changes its data changes that version, and so the keys. The homes sit beside this
 * interface: memory (memory-remote-cache.ts) and the data folder (disk-remote-cache.ts).
 */
import { createHash } from 'node:crypto';
import type { RemoteBytes } from './remote-bytes.ts';

export interface RemoteCache {
  /** The bytes kept under `key`, or undefined. */
  get(key: string): Promise<RemoteBytes | undefined>;
  /** Keeps `value` under `key` (a cache may drop it at any time). */
  set(key: string, value: RemoteBytes): Promise<void>;
}

/** The key of a read: URL, range and version, hashed so that any home can use it as a name. */
export function remoteCacheKey(url: string, range: string, version: string | null): string {
  return createHash('sha256').update(`${url}\n${range}\n${version ?? ''}`).digest('hex');
}
