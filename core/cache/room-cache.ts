/**
 * @module room-cache
 * RoomCache: at most one result per room, keyed by function name + parameter hash.
 * A different key in a room replaces the entry; entries expire after the time-to-live and
 * are freed by a periodic sweep, so memory is bounded by one entry per live room. Node runs
 * this on one thread, so every operation is atomic with respect to requests. With a byte
 * budget, every stored value is held in it (the budget may drop the least recently used).
 */
import type { CacheStats } from '../wire/wire-types.ts';
import type { RoomState } from './room-state.ts';
import type { ResultBudget } from './result-budget.ts';
import { slotOwner } from '../events/layer-slots.ts';

export interface CacheEntry<T> {
  roomId: string;
  key: string;
  functionName: string;
  paramKeys: string[];
  value: T;
  createdAt: number;
  accessCount: number;
  /** What the room shows (room events' data); absent for entries stored without one. */
  state?: RoomState;
}

export type { CacheStats };

/** How statistics name the room of an entry: a layer's slot as its room and `layer`. */
export function statsRoom(roomId: string): { room_id: string; layer?: string } {
  const owner = slotOwner(roomId);
  return owner ? { room_id: owner.room, layer: owner.layer } : { room_id: roomId };
}

export class RoomCache<T> {
  #rooms = new Map<string, CacheEntry<T>>();
  #ttlMs: number;
  #now: () => number;
  #sweeper: NodeJS.Timeout | null = null;
  #budget: ResultBudget<T> | null;

  constructor(options: { ttlSeconds: number; now?: () => number; sweepIntervalMs?: number; budget?: ResultBudget<T> }) {
    this.#ttlMs = options.ttlSeconds * 1000;
    this.#now = options.now ?? Date.now;
    this.#budget = options.budget ?? null;
    const every = options.sweepIntervalMs ?? Math.min(30_000, Math.max(1000, this.#ttlMs / 2));
    if (every > 0) {
      this.#sweeper = setInterval(() => this.sweep(), every).unref();
    }
  }

  get ttlSeconds(): number {
    return this.#ttlMs / 1000;
  }

  #drop(entry: CacheEntry<T>): void {
    if (this.#rooms.get(entry.roomId) === entry) this.#rooms.delete(entry.roomId);
    this.#budget?.release(entry.value, `room:${entry.roomId}`);
  }

  #expired(entry: CacheEntry<T>): boolean {
    return this.#now() - entry.createdAt >= this.#ttlMs;
  }

  /** The room's entry for `key`, counting the access; undefined on a miss or expiry. */
  get(roomId: string, key: string): CacheEntry<T> | undefined {
    const entry = this.peek(roomId);
    if (entry?.key !== key) return undefined;
    entry.accessCount++;
    this.#budget?.touch(entry.value);
    return entry;
  }

  /** The room's live entry whatever its key, without counting an access. */
  peek(roomId: string): CacheEntry<T> | undefined {
    const entry = this.#rooms.get(roomId);
    if (entry && this.#expired(entry)) {
      this.#drop(entry);
      return undefined;
    }
    return entry;
  }

  /** Stores a result as the room's only entry (replacing any other key). */
  set(roomId: string, key: string, functionName: string, paramKeys: string[], value: T, state?: RoomState): CacheEntry<T> {
    const previous = this.#rooms.get(roomId);
    if (previous) this.#drop(previous);
    const entry: CacheEntry<T> = { roomId, key, functionName, paramKeys, value, createdAt: this.#now(), accessCount: 1, ...(state ? { state } : {}) };
    this.#rooms.set(roomId, entry);
    // Evicted by the budget: the room simply has no entry any more (the next request computes).
    this.#budget?.hold(value, `room:${roomId}`, () => {
      if (this.#rooms.get(roomId) === entry) this.#rooms.delete(roomId);
    });
    return entry;
  }

  /** Frees expired entries; returns how many. */
  sweep(): number {
    let freed = 0;
    for (const entry of this.#rooms.values()) {
      if (this.#expired(entry)) {
        this.#drop(entry);
        freed++;
      }
    }
    return freed;
  }

  /** Drops the room's entry; true when it had one. */
  delete(roomId: string): boolean {
    const entry = this.#rooms.get(roomId);
    if (entry) this.#drop(entry);
    return entry !== undefined;
  }

  /** Drops every entry; returns how many there were. */
  clear(): number {
    const n = this.#rooms.size;
    for (const entry of [...this.#rooms.values()]) this.#drop(entry);
    return n;
  }

  /** Drops entries whose value matches (e.g. results of a worker that left). */
  deleteWhere(predicate: (entry: CacheEntry<T>) => boolean): void {
    for (const entry of [...this.#rooms.values()]) if (predicate(entry)) this.#drop(entry);
  }

  stats(): CacheStats {
    this.sweep();
    const now = this.#now();
    const entries = [...this.#rooms.values()].map((e) => ({
      ...statsRoom(e.roomId),
      function_name: e.functionName,
      age_seconds: Math.round((now - e.createdAt) / 10) / 100,
      access_count: e.accessCount,
    }));
    return { total_entries: entries.length, ttl_seconds: this.ttlSeconds, total_bytes: this.totalBytes, max_bytes: this.maxBytes, entries };
  }

  get size(): number {
    return this.#rooms.size;
  }

  /** Bytes of every result in the byte budget (rooms and finished jobs); 0 without one. */
  get totalBytes(): number {
    return this.#budget?.totalBytes ?? 0;
  }

  /** The byte budget; null without one. */
  get maxBytes(): number | null {
    return this.#budget?.maxBytes ?? null;
  }

  close(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
    this.clear();
  }
}
