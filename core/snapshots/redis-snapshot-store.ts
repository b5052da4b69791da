/**
 * @module redis-snapshot-store
 * Snapshots on a Redis service: each record a key of its own that expires with the snapshot,
 * and each result's blob kept in the service's blob store at least as long (a blob's life only
 * ever lengthens). Checking a snapshot asks the blob store whether each blob is still whole, so
 * one an evicting blob store dropped anyway is known for lost.
 */
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { SnapshotRecord, SnapshotStore } from './snapshot-store.ts';

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
