/**
 * @module room-pointers
 * The room pointers a host has read, held so a repeated hit needs no Redis round trip
 * (redis/held-by-room.ts: the rule that makes that safe). Whoever changes a room's entry (a
 * computation's end, a host dropping a pointer whose bytes are gone, a cache clear) publishes
 * the room's id on the pointer channel in the same step. A copy never outlives the entry's TTL
 * in Redis.
 *
 * Hit counts go to Redis in batches, once a second: a pointer read from memory still counts.
 */
import type { BlobRef } from '../blobs/blob-store.ts';
import { HeldByRoom, type HeldNews, type ReadValue } from '../redis/held-by-room.ts';

/** What a room pointer read gives: the entry's values key, its blob, and its remaining life. */
export interface PointerRead {
  key: string;
  ref: BlobRef;
  ttlMs: number;
}

/** How often batched hit counts are written. */
export const FLUSH_MS = 1000;
/** A copy is dropped this long before the entry's own expiry, against clock skew with Redis. */
const MARGIN_MS = 250;

export class RoomPointers {
  #held: HeldByRoom<PointerRead | null>;
  #counts = new Map<string, { key: string; n: number }>();
  #flush: (counts: Map<string, { key: string; n: number }>) => Promise<void>;
  #timer: NodeJS.Timeout;
  #stopHearing: () => void;

  /**
   * @param news where this host hears rooms' entries change (a room's copy goes, or all on `*` or a resubscription)
   * @param flush writes hit counts (room → the entry's key and how many hits)
   */
  constructor(news: HeldNews, flush: (counts: Map<string, { key: string; n: number }>) => Promise<void>) {
    this.#held = new HeldByRoom(() => news.listening());
    this.#stopHearing = this.#held.hear(news);
    this.#flush = flush;
    this.#timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  /**
   * The room's entry for `key` from memory when held (null: the room holds another key), or
   * from `read` (one round trip) otherwise. Counts the hit.
   */
  async hit(room: string, key: string, read: (room: string) => Promise<ReadValue<PointerRead | null>>): Promise<BlobRef | null> {
    const pointer = await this.#held.get(room, read);
    if (!pointer || pointer.key !== key) return null;
    this.#count(room, key);
    return pointer.ref;
  }

  #count(room: string, key: string): void {
    const counted = this.#counts.get(room);
    if (counted && counted.key === key) counted.n++;
    else this.#counts.set(room, { key, n: 1 });
  }

  /** The room's entry changed (or went): its copy goes, and reads in flight are not kept. */
  invalidate(room: string): void {
    this.#held.invalidate(room);
  }

  /** Drops every copy (a clear, or a subscription that may have missed invalidations). */
  dropAll(): void {
    this.#held.dropAll();
  }

  /** How many pointers are held (for tests and figures). */
  get size(): number {
    return this.#held.size;
  }

  /** Writes the hit counts gathered so far. */
  async flush(): Promise<void> {
    if (this.#counts.size === 0) return;
    const counts = this.#counts;
    this.#counts = new Map();
    await this.#flush(counts).catch(() => {});
  }

  close(): void {
    clearInterval(this.#timer);
    this.#stopHearing();
    this.#held.close();
  }
}

/** A pointer as read, held until its entry's life in Redis ends (less a margin against clock skew). */
export function heldPointer(pointer: PointerRead | null): ReadValue<PointerRead | null> {
  return { value: pointer, keepMs: pointer ? pointer.ttlMs - MARGIN_MS : 0 };
}
