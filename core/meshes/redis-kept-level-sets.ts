/**
 * @module redis-kept-level-sets
 * Level sets a Redis service keeps: each set's kept form in the service's blob store (chunks
 * in Redis, or an object in S3), and its name pointing at it in Redis, both for `ttlMs` (the
 * service's results' longest life), which each read of the set lengthens. A pointer whose
 * blob is gone reads as a miss.
 */
import type { Redis } from 'ioredis';
import type { BlobStore } from '../blobs/blob-store.ts';
import { PointedBlobs } from '../blobs/pointed-blobs.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { keptForm, setOfKept, type KeptLevelSets } from './kept-level-sets.ts';
import type { SegmentLods } from './level-set.ts';

export class RedisKeptLevelSets implements KeptLevelSets {
  readonly #kept: PointedBlobs;

  constructor(redis: Redis, blobs: BlobStore, ttlMs: number) {
    this.#kept = new PointedBlobs(redis, blobs, ttlMs);
  }

  async keep(name: string, lods: SegmentLods, keptId: string): Promise<void> {
    await this.#kept.keep(KEYS.meshLevels(name), keptForm(lods.packed, keptId));
  }

  async find(name: string): Promise<SegmentLods | null> {
    return setOfKept(await this.#kept.find(KEYS.meshLevels(name)));
  }
}
