/**
 * @module blob-remote-cache
 * Remote reads a Redis service keeps: each read's bytes in the service's blob store (chunks in
 * Redis, or an object in S3), and its cache key pointing at them in Redis, both for `ttlMs`,
 * which each hit lengthens. Every host of the service reads what one of them read. A pointer
 * whose blob is gone reads as a miss.
 */
import type { Redis } from 'ioredis';
import type { BlobRef, BlobStore } from '../blobs/blob-store.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { RemoteBytes } from './remote-bytes.ts';
import { keptRead, readOfKept, type RemoteCache } from './remote-cache.ts';

export class BlobRemoteCache implements RemoteCache {
  #redis: Redis;
  #blobs: BlobStore;
  #ttlMs: number;

  constructor(redis: Redis, blobs: BlobStore, ttlMs: number) {
    this.#redis = redis;
    this.#blobs = blobs;
    this.#ttlMs = Math.max(1, Math.round(ttlMs));
  }

  async get(key: string): Promise<RemoteBytes | undefined> {
    const name = KEYS.remoteRead(key);
    const pointer = await this.#redis.get(name);
    if (!pointer) return undefined;
    const ref = JSON.parse(pointer) as BlobRef;
    const read = readOfKept(await this.#blobs.get(ref));
    if (read) await Promise.all([this.#redis.pexpire(name, this.#ttlMs), this.#blobs.touch(ref, this.#ttlMs)]);
    return read;
  }

  async set(key: string, value: RemoteBytes): Promise<void> {
    const { stored, hash, meta } = await this.#blobs.put(keptRead(value), this.#ttlMs);
    // A store out of room keeps none of it: nothing to point at.
    if (stored) await this.#redis.set(KEYS.remoteRead(key), JSON.stringify({ hash, meta } satisfies BlobRef), 'PX', this.#ttlMs);
  }
}
