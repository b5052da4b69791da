/**
 * @module redis-snapshot-store
 * Snapshots on a Redis service: each record a key of its own that expires with the snapshot,
 * and each result's blob kept in the service's blob store at least as long (a blob's life only
 * ever lengthens). Checking a snapshot asks the blob store whether each blob is still whole, so
 * one an evicting blob store dropped anyway is known for lost.
 */
import type { BlobRef, BlobStore } from '../blobs/blob-store.ts';
import { createHostError } from '../errors.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultPins, SnapshotRecord, SnapshotStore } from './snapshot-store.ts';

export class RedisSnapshotStore implements SnapshotStore {
  #redis: ScriptedRedis;

  constructor(redis: ScriptedRedis) {
    this.#redis = redis;
  }

  async put(id: string, record: SnapshotRecord, ttlMs: number): Promise<void> {
    await orUnavailable(this.#redis.set(KEYS.snapshot(id), JSON.stringify(record), 'PX', Math.ceil(ttlMs)));
  }

  async get(id: string): Promise<SnapshotRecord | null> {
    const raw = await orUnavailable(this.#redis.get(KEYS.snapshot(id)));
    if (!raw) return null;
    try {
      return JSON.parse(raw) as SnapshotRecord;
    } catch {
      return null;
    }
  }

  close(): void {}
}

export class RedisResultPins implements ResultPins {
  #blobs: Pick<BlobStore, 'put' | 'touch'>;

  constructor(blobs: Pick<BlobStore, 'put' | 'touch'>) {
    this.#blobs = blobs;
  }

  async pin(_snapshotId: string, results: StoredResult[], ttlMs: number): Promise<BlobRef[]> {
    const refs: BlobRef[] = [];
    for (const result of results) {
      const put = await this.#blobs.put(result, ttlMs);
      if (!put.stored) throw createHostError('SPC_ERR_REDIS_UNAVAILABLE', "the blob store is out of memory and could not keep the snapshot's bytes");
      refs.push({ hash: put.hash, meta: put.meta });
    }
    return refs;
  }

  async intact(_snapshotId: string, pins: unknown): Promise<boolean> {
    const refs = Array.isArray(pins) ? (pins as BlobRef[]) : [];
    // A life of 1 ms never shortens one (it only ever lengthens): this only asks whether each is whole.
    const whole = await Promise.all(refs.map((ref) => this.#blobs.touch(ref, 1)));
    return whole.every(Boolean);
  }

  close(): void {}
}
