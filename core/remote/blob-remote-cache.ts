/**
 * @module blob-remote-cache
 * Remote reads a Redis service keeps: each read's bytes in the service's blob store (chunks in
 * Redis, or an object in S3), and its cache key pointing at them in Redis, both for `ttlMs`,
 * which each hit lengthens. Every host of the service reads what one of them read. A pointer
 * whose blob is gone reads as a miss.
 */
import type { Redis } from 'ioredis';
import type { BlobStore } from '../blobs/blob-store.ts';
import { PointedBlobs } from '../blobs/pointed-blobs.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { RemoteBytes } from './remote-bytes.ts';
import { keptRead, readOfKept, type RemoteCache } from './remote-cache.ts';

export class BlobRemoteCache implements RemoteCache {
  readonly #kept: PointedBlobs;

  constructor(redis: Redis, blobs: BlobStore, ttlMs: number) {
    this.#kept = new PointedBlobs(redis, blobs, ttlMs);
  }

  async get(key: string): Promise<RemoteBytes | undefined> {
    return readOfKept(await this.#kept.find(KEYS.remoteRead(key)));
  }

  async set(key: string, value: RemoteBytes): Promise<void> {
    await this.#kept.keep(KEYS.remoteRead(key), keptRead(value));
  }
}
