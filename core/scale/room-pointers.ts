/**
 * @module room-pointers
 * The room pointers a host has read, kept so a repeated hit needs no Redis round trip.
 * Whoever changes a room's entry (a computation's end, a host dropping a pointer whose bytes
 * are gone, a cache clear) publishes the room's id on the invalidation channel in the same
 * step, and every host drops its copy when the message comes. The change is published before
 * its author's request is answered, so the message is already waiting on every other host's
 * subscriber socket when a client's next request arrives there; a cached pointer is trusted
 * only after one turn of the event loop (setImmediate), by which time every socket that was
 * readable has been read and the invalidation applied.
 *
 * While the subscription is away (and until it is back after a reconnection) messages may be
 * lost, so nothing is cached then and everything held is dropped. A read that an invalidation
 * of its room overtook is not kept. A copy never outlives the entry's TTL in Redis.
 *
 * Hit counts go to Redis in batches, once a second: a pointer read from memory still counts.
 */
import type { BlobRef } from '../blobs/blob-store.ts';

/** What a room pointer read gives: the entry's values key, its blob, and its remaining life. */
export interface PointerRead {
  key: string;
  ref: BlobRef;
  ttlMs: number;
}

interface Held {
  key: string;
  ref: BlobRef;
  until: number;
}

/** How often batched hit counts are written. */
export const FLUSH_MS = 1000;
/** Pointers held at most (the oldest read goes first). */
const MAX_HELD = 100_000;
/** A copy is dropped this long before the entry's own expiry, against clock skew with Redis. */
const MARGIN_MS = 250;

/**
 * Resolves once this turn's I/O (an invalidation message among it) has been handled. Every hit
 * of the same turn shares one promise: immediates set during a turn all run after its I/O.
 */
let turn: Promise<void> | null = null;
function nextTurn(): Promise<void> {
  return (turn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      turn = null;
      resolve();
    }),
  ));
}

export class RoomPointers {
  #held = new Map<string, Held>();
  /** Reads in flight by room: set to true when an invalidation of the room overtakes them. */
  #reading = new Map<string, { overtaken: boolean }[]>();
  #counts = new Map<string, { key: string; n: number }>();
  #listening: () => boolean;
  #flush: (counts: Map<string, { key: string; n: number }>) => Promise<void>;
  #timer: NodeJS.Timeout;

  /**
   * @param listening whether invalidations reach this host now
   * @param flush writes hit counts (room → the entry's key and how many hits)
   */
  constructor(listening: () => boolean, flush: (counts: Map<string, { key: string; n: number }>) => Promise<void>) {
    this.#listening = listening;
    this.#flush = flush;
    this.#timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.#timer.unref();
  }

  /**
   * The room's entry for `key` from memory when held (null: the room holds another key), or
   * from `read` (one round trip) otherwise. Counts the hit.
   */
  async hit(room: string, key: string, read: (room: string) => Promise<PointerRead | null>): Promise<BlobRef | null> {
    const held = this.#fresh(room);
    if (held) {
      await nextTurn();
      // An invalidation read during that turn has removed it.
      const still = this.#fresh(room);
      if (still === held) {
        if (still.key !== key) return null;
        this.#count(room, key);
        return still.ref;
      }
    }
    const token = { overtaken: false };
    const pending = this.#reading.get(room) ?? [];
    pending.push(token);
    this.#reading.set(room, pending);
    let pointer: PointerRead | null;
    try {
      pointer = await read(room);
    } finally {
      const left = (this.#reading.get(room) ?? []).filter((t) => t !== token);
      if (left.length > 0) this.#reading.set(room, left);
      else this.#reading.delete(room);
    }
    if (!pointer) return null;
    if (!token.overtaken && this.#listening() && pointer.ttlMs > MARGIN_MS) this.#hold(room, pointer);
    if (pointer.key !== key) return null;
    this.#count(room, key);
    return pointer.ref;
  }

  #fresh(room: string): Held | undefined {
    const held = this.#held.get(room);
    if (!held) return undefined;
    if (held.until > Date.now() && this.#listening()) return held;
    this.#held.delete(room);
    return undefined;
  }

  #hold(room: string, pointer: PointerRead): void {
    this.#held.delete(room);
    if (this.#held.size >= MAX_HELD) this.#held.delete(this.#held.keys().next().value!);
    this.#held.set(room, { key: pointer.key, ref: pointer.ref, until: Date.now() + pointer.ttlMs - MARGIN_MS });
  }

  #count(room: string, key: string): void {
    const counted = this.#counts.get(room);
    if (counted && counted.key === key) counted.n++;
    else this.#counts.set(room, { key, n: 1 });
  }

  /** The room's entry changed (or went): its copy goes, and reads in flight are not kept. */
  invalidate(room: string): void {
    this.#held.delete(room);
    for (const token of this.#reading.get(room) ?? []) token.overtaken = true;
  }

  /** Drops every copy (a clear, or a subscription that may have missed invalidations). */
  dropAll(): void {
    this.#held.clear();
    for (const tokens of this.#reading.values()) for (const token of tokens) token.overtaken = true;
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
    this.#held.clear();
  }
}
