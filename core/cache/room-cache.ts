/**
 * @module room-cache
 * RoomCache: at most one result per room, keyed by function name + parameter hash.
 * A different key in a room replaces the entry; entries expire after the time-to-live and
 * are freed by a periodic sweep, so memory is bounded by one entry per live room. Node runs
 * this on one thread, so every operation is atomic with respect to requests.
 */
import type { CacheStats } from '../client/wire-types.ts';

export interface CacheEntry<T> {
  roomId: string;
  key: string;
  functionName: string;
  paramKeys: string[];
  value: T;
  createdAt: number;
  accessCount: number;
}

export type { CacheStats };

export class RoomCache<T> {
  #rooms = new Map<string, CacheEntry<T>>();
  #ttlMs: number;
  #now: () => number;
  #sweeper: NodeJS.Timeout | null = null;

  constructor(options: { ttlSeconds: number; now?: () => number; sweepIntervalMs?: number }) {
    this.#ttlMs = options.ttlSeconds * 1000;
    this.#now = options.now ?? Date.now;
    const every = options.sweepIntervalMs ?? Math.min(30_000, Math.max(1000, this.#ttlMs / 2));
    if (every > 0) {
      this.#sweeper = setInterval(() => this.sweep(), every);
      this.#sweeper.unref();
    }
  }

  get ttlSeconds(): number {
    return this.#ttlMs / 1000;
  }

  #expired(entry: CacheEntry<T>): boolean {
    return this.#now() - entry.createdAt >= this.#ttlMs;
  }

  /** The room's entry for `key`, counting the access; undefined on a miss or expiry. */
  get(roomId: string, key: string): CacheEntry<T> | undefined {
    const entry = this.#rooms.get(roomId);
    if (!entry) return undefined;
    if (this.#expired(entry)) {
      this.#rooms.delete(roomId);
      return undefined;
    }
    if (entry.key !== key) return undefined;
    entry.accessCount++;
    return entry;
  }

  /** Stores a result as the room's only entry (replacing any other key). */
  set(roomId: string, key: string, functionName: string, paramKeys: string[], value: T): CacheEntry<T> {
    const entry: CacheEntry<T> = { roomId, key, functionName, paramKeys, value, createdAt: this.#now(), accessCount: 1 };
    this.#rooms.set(roomId, entry);
    return entry;
  }

  /** Frees expired entries; returns how many. */
  sweep(): number {
    let freed = 0;
    for (const [room, entry] of this.#rooms) {
      if (this.#expired(entry)) {
        this.#rooms.delete(room);
        freed++;
      }
    }
    return freed;
  }

  /** Drops every entry; returns how many there were. */
  clear(): number {
    const n = this.#rooms.size;
    this.#rooms.clear();
    return n;
  }

  /** Drops entries whose value matches (e.g. results of a worker that left). */
  deleteWhere(predicate: (entry: CacheEntry<T>) => boolean): void {
    for (const [room, entry] of this.#rooms) if (predicate(entry)) this.#rooms.delete(room);
  }

  stats(): CacheStats {
    this.sweep();
    const now = this.#now();
    const entries = [...this.#rooms.values()].map((e) => ({
      room_id: e.roomId,
      function_name: e.functionName,
      age_seconds: Math.round((now - e.createdAt) / 10) / 100,
      access_count: e.accessCount,
    }));
    return { total_entries: entries.length, ttl_seconds: this.ttlSeconds, entries };
  }

  get size(): number {
    return this.#rooms.size;
  }

  close(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
    this.#rooms.clear();
  }
}
