/**
 * @module remote-cache
 * Where bytes read from a remote are kept, so that a second viewer of the same view reads
 * nothing from the remote. An entry's key names the URL, the byte range and the version the
 * remote gave the array it belongs to (its ETag, else its Last-Modified): a remote that
 * changes its data changes that version, and so the keys. A home may lose an entry at any
 * time; a reader takes that as a miss and reads the remote again.
 *
 * Homes side by side: memory (memory-remote-cache.ts, one process), the blob plane
 * (disk-remote-cache.ts: a lone host's data folder among its kept results, so a restarted host
 * has them; blob-remote-cache.ts: a Redis service's blob store, Redis or S3, so every host of
 * the service has them), and memory in front of either (layered-remote-cache.ts). One
 * conformance suite runs over all of them.
 */
import { createHash } from 'node:crypto';
import type { StoredResult } from '../results/stored-result.ts';
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

/**
 * Read bytes as the blob plane keeps results: a one-dimensional uint8 volume. Only the bytes
 * are kept: the version they were read under is in their key already.
 */
export function keptRead(read: RemoteBytes): StoredResult {
  return { type: 'volume', shape: [read.bytes.byteLength], dtype: 'uint8', data: read.bytes };
}

/** The read a kept result holds, or undefined when it holds none (gone, or not a kept read). */
export function readOfKept(result: StoredResult | null): RemoteBytes | undefined {
  if (result?.type !== 'volume' || result.dtype !== 'uint8' || !ArrayBuffer.isView(result.data)) return undefined;
  const data = result.data;
  return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), etag: null, lastModified: null };
}
