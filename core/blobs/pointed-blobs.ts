/**
 * @module pointed-blobs
 * Results a Redis service keeps by name: each result in the service's blob store (chunks in
 * Redis, or an object in S3) and its name pointing at it in Redis, both for `ttlMs`, which each
 * read lengthens. A name whose blob is gone reads as a miss; a store out of room keeps nothing,
 * so nothing is named.
 */
import type { Redis } from 'ioredis';
import type { StoredResult } from '../results/stored-result.ts';
import type { BlobRef, BlobStore } from './blob-store.ts';

export class PointedBlobs {
  readonly #redis: Redis;
  readonly #blobs: BlobStore;
  readonly #ttlMs: number;

  constructor(redis: Redis, blobs: BlobStore, ttlMs: number) {
    this.#redis = redis;
    this.#blobs = blobs;
    this.#ttlMs = Math.max(1, Math.round(ttlMs));
  }

  /** Keeps `result` and points Redis key `name` at it. */
  async keep(name: string, result: StoredResult): Promise<void> {
    const { stored, hash, meta } = await this.#blobs.put(result, this.#ttlMs);
    if (stored) await this.#redis.set(name, JSON.stringify({ hash, meta } satisfies BlobRef), 'PX', this.#ttlMs);
  }

  /** What Redis key `name` points at, its life lengthened; null when gone. */
  async find(name: string): Promise<StoredResult | null> {
    const pointer = await this.#redis.get(name);
    if (!pointer) return null;
    const ref = JSON.parse(pointer) as BlobRef;
    const result = await this.#blobs.get(ref);
    if (result) await Promise.all([this.#redis.pexpire(name, this.#ttlMs), this.#blobs.touch(ref, this.#ttlMs)]);
    return result;
  }
}
