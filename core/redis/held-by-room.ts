/**
 * @module held-by-room
 * What a host has read from a Redis service about each room (its entry's pointer, its access),
 * held so a repeated read needs no round trip. Whoever changes what is held publishes the room's
 * id on an invalidation channel in the same step (the script that changes it), before its
 * author's request is answered, so the message is already waiting on every other host's
 * subscriber socket when a client's next request arrives there; a held value is trusted only
 * after one turn of the event loop (setImmediate), by which time every socket that was readable
 * has been read and the invalidation applied.
 *
 * While the subscription is away (and until it is back after a reconnection) messages may be
 * lost, so nothing is held then and everything held is dropped. A read that an invalidation of
 * its room overtook is not kept.
 */

/** A value read from Redis, and how long it may be held (0 or less: not at all). */
export interface ReadValue<T> {
  value: T;
  keepMs: number;
}

/** Where a host hears that rooms' held values changed: a Redis service's subscription. */
export interface HeldNews {
  /** Whether invalidations reach this host now. */
  listening(): boolean;
  /** Calls `listener` with each room whose value changed (`*`: every room); answers how to stop. */
  onChange(listener: (room: string) => void): () => void;
  /** Calls `listener` each time the subscription is back after a reconnection (what was published meanwhile was lost). */
  onResubscribed(listener: () => void): () => void;
}

interface Held<T> {
  value: T;
  until: number;
}

/** Values held at most (the oldest read goes first). */
const MAX_HELD = 100_000;

/**
 * Resolves once this turn's I/O (an invalidation message among it) has been handled. Every read
 * of the same turn shares one promise: immediates set during a turn all run after its I/O.
 */
let turn: Promise<void> | null = null;
function afterThisTurn(): Promise<void> {
  return (turn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      turn = null;
      resolve();
    }),
  ));
}

export class HeldByRoom<T> {
  #held = new Map<string, Held<T>>();
  /** Reads in flight by room: set to true when an invalidation of the room overtakes them. */
  #reading = new Map<string, { overtaken: boolean }[]>();
  #listening: () => boolean;

  /** `listening`: whether invalidations reach this host now. */
  constructor(listening: () => boolean) {
    this.#listening = listening;
  }

  /** The room's value: held (after a turn), or from `read` (one round trip), held as long as it says. */
  async get(room: string, read: (room: string) => Promise<ReadValue<T>>): Promise<T> {
    const held = this.#fresh(room);
    if (held) {
      await afterThisTurn();
      // An invalidation read during that turn has removed it.
      if (this.#fresh(room) === held) return held.value;
    }
    const token = { overtaken: false };
    const pending = this.#reading.get(room) ?? [];
    pending.push(token);
    this.#reading.set(room, pending);
    let got: ReadValue<T>;
    try {
      got = await read(room);
    } finally {
      const left = (this.#reading.get(room) ?? []).filter((t) => t !== token);
      if (left.length > 0) this.#reading.set(room, left);
      else this.#reading.delete(room);
    }
    if (!token.overtaken && this.#listening() && got.keepMs > 0) this.#hold(room, got);
    return got.value;
  }

  #fresh(room: string): Held<T> | undefined {
    const held = this.#held.get(room);
    if (!held) return undefined;
    if (held.until > Date.now() && this.#listening()) return held;
    this.#held.delete(room);
    return undefined;
  }

  #hold(room: string, got: ReadValue<T>): void {
    this.#held.delete(room);
    if (this.#held.size >= MAX_HELD) this.#held.delete(this.#held.keys().next().value!);
    this.#held.set(room, { value: got.value, until: Date.now() + got.keepMs });
  }

  /** The room's value changed (or went): its copy goes, and reads in flight are not kept. */
  invalidate(room: string): void {
    this.#held.delete(room);
    for (const token of this.#reading.get(room) ?? []) token.overtaken = true;
  }

  /** Drops every copy (a clear, or a subscription that may have missed invalidations). */
  dropAll(): void {
    this.#held.clear();
    for (const tokens of this.#reading.values()) for (const token of tokens) token.overtaken = true;
  }

  /** Hears `news`: a room's change drops its copy, `*` or a reconnection every copy; answers how to stop. */
  hear(news: HeldNews): () => void {
    const unchange = news.onChange((room) => (room === '*' ? this.dropAll() : this.invalidate(room)));
    const unresubscribe = news.onResubscribed(() => this.dropAll());
    return () => {
      unchange();
      unresubscribe();
    };
  }

  /** How many values are held (for tests and figures). */
  get size(): number {
    return this.#held.size;
  }

  close(): void {
    this.#held.clear();
  }
}
