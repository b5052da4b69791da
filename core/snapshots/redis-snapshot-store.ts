/**
 * @module redis-snapshot-store
 * Snapshots on a Redis service: each record a key of its own that expires with the snapshot
 * (set with its entry in the log of the room it was taken of by one script), and each result's
 * blob kept in the service's blob store at least as long (a blob's life only ever lengthens).
 * Checking a snapshot asks the blob store whether each blob is still whole, so one an evicting
 * blob store dropped anyway is known for lost.
 */
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import { snapshotTaken } from '../history/room-changes.ts';
import type { LogEntry } from '../history/room-log-store.ts';
import type { SnapshotRecord, SnapshotStore } from './snapshot-store.ts';

export class RedisSnapshotStore implements SnapshotStore {
  #redis: ScriptedRedis;
  #log: Pick<RedisRoomLog, 'entryArgs'>;

  /** `log`: the service's room logs, a snapshot taken appended by the script that keeps it. */
  constructor(redis: ScriptedRedis, log: Pick<RedisRoomLog, 'entryArgs'>) {
    this.#redis = redis;
    this.#log = log;
  }

  async put(id: string, record: SnapshotRecord, ttlMs: number, takenOf?: string): Promise<LogEntry | null> {
    const logged = takenOf === undefined ? ['', '', '', ''] : [takenOf, ...this.#log.entryArgs(snapshotTaken(id))];
    const entry = await orUnavailable(this.#redis.vSnapshotPut(id, JSON.stringify(record), Math.ceil(ttlMs), ...logged));
    return entry ? (JSON.parse(String(entry)) as LogEntry) : null;
  }

  async get(id: string): Promise<SnapshotRecord | null> {
    const raw = await orUnavailable(this.#redis.get(KEYS.snapshot(id)));
    return raw ? (storedJson(raw) as SnapshotRecord | null) : null;
  }

  close(): void {}
}
