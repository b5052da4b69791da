/**
 * @module redis-kept-level-sets
 * Level sets a Redis service keeps: each set's kept form in the service's blob store (chunks
 * in Redis, or an object in S3), and its name pointing at it in Redis, both for `ttlMs` (the
 * service's results' longest life), which each read of the set lengthens. A pointer whose
 * blob is gone reads as a miss.
 */
import type { Redis } from 'ioredis';
import type { BlobRef, BlobStore } from '../blobs/blob-store.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { rememberResultId } from '../results/result-id.ts';
import { keptForm, setOfKept, type KeptLevelSets } from './kept-level-sets.ts';
import type { SegmentLods } from './level-set.ts';

export class RedisKeptLevelSets implements KeptLevelSets {
  #redis: Redis;
  #blobs: BlobStore;
  #ttlMs: number;

  constructor(redis: Redis, blobs: BlobStore, ttlMs: number) {
    this.#redis = redis;
    this.#blobs = blobs;
    this.#ttlMs = Math.max(1, Math.round(ttlMs));
  }

  async keep(name: string, lods: SegmentLods, keptId: string): Promise<void> {
    const form = keptForm(lods.packed);
    rememberResultId(form, keptId);
    const { stored, hash, meta } = await this.#blobs.put(form, this.#ttlMs);
    // A store out of room keeps none of it: nothing to name.
    if (stored) await this.#redis.set(KEYS.meshLevels(name), JSON.stringify({ hash, meta } satisfies BlobRef), 'PX', this.#ttlMs);
  }

  async find(name: string): Promise<SegmentLods | null> {
    const key = KEYS.meshLevels(name);
    const pointer = await this.#redis.get(key);
    if (!pointer) return null;
    const ref = JSON.parse(pointer) as BlobRef;
    const lods = setOfKept(await this.#blobs.get(ref));
    if (lods) await Promise.all([this.#redis.pexpire(key, this.#ttlMs), this.#blobs.touch(ref, this.#ttlMs)]);
    return lods;
  }
}
