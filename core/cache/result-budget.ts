/**
 * @module result-budget
 * One byte budget over every result the host holds: room-cache entries and finished jobs'
 * results alike. A result is counted once however many holders share it (a room entry and the
 * job that computed it are the same object). Past the budget the least recently used results
 * go first: each of their holders is told (the room entry is dropped, the job's result
 * answers 410). A single result larger than the whole budget is not kept at all; the requests
 * already waiting for it still get it. Once many bytes were freed, garbage is collected when
 * the host goes quiet, so their memory goes back to the system. Bytes derived from a result
 * (a delivery's compressed or reshaped variants) are held as its dependents: they count in
 * the same budget and go when it goes. Bytes made from a result and living exactly as long
 * (its JSON encoding) are attached to it and count with it. What people made (published
 * files, uploads, snapshots' results) is pinned: it counts in the budget but is never evicted,
 * and its keepers ask {@link ResultBudget.pinnable} first so that pins never pass the budget.
 */

import { PressureCollector } from '../memory/pressure-gc.ts';

/** Called when the budget drops a result; the holder forgets it. */
export type EvictListener = () => void;

interface Held {
  bytes: number;
  holders: Map<string, EvictListener>;
  /** Holders that pinned it: while any is left, least-recently-used eviction passes it by. */
  pins?: Set<string>;
}

/** Freed bytes after which the host collects garbage once it goes quiet. */
const COLLECT_AFTER_BYTES = 64 * 1024 * 1024;
/** Freed bytes after which it collects even while busy (shared memory starts no collection by itself). */
const COLLECT_NOW_BYTES = 128 * 1024 * 1024;

export class ResultBudget<T> {
  readonly maxBytes: number;
  #sizeOf: (value: T) => number;
  /** In least-recently-used order: Map iteration order, refreshed by `touch`. */
  #held = new Map<T | object, Held>();
  /** Values held because another one is: dropped with it. */
  #dependents = new Map<T | object, Set<object>>();
  /** The value each dependent is held for (so a dependent dropped alone leaves its set). */
  #sources = new Map<object, T | object>();
  /** Bytes attached to values (held or not yet), counted whenever the value is held. */
  #attached = new WeakMap<object, number>();
  #totalBytes = 0;
  #pinnedBytes = 0;
  #freedSinceCollect = 0;
  #gc = new PressureCollector(COLLECT_NOW_BYTES, 1000);

  constructor(maxBytes: number, sizeOf: (value: T) => number) {
    this.maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Results held (each counted once). */
  get size(): number {
    return this.#held.size;
  }

  /**
   * `holder` now keeps `value`; `onEvict` runs if the budget drops it. Evicts least recently
   * used results until the total fits (the value itself too, when it alone exceeds the budget).
   */
  hold(value: T, holder: string, onEvict: EvictListener): void {
    this.#hold(value, () => this.#sizeOf(value), holder, onEvict);
  }

  /**
   * Holds `value`, of `bytes` bytes, as long as `source` is held (when it is: a value whose
   * source is not in the budget goes by its own use alone).
   */
  holdDependent(value: object, bytes: number, source: T | object, holder: string, onEvict: EvictListener): void {
    if (this.#held.has(source) && source !== value) {
      let set = this.#dependents.get(source);
      if (!set) this.#dependents.set(source, (set = new Set()));
      set.add(value);
      this.#sources.set(value, source);
    }
    this.#hold(value, () => bytes, holder, onEvict);
  }

  /**
   * `holder` keeps `value` and the budget never evicts it while this pin lasts (a snapshot's
   * bytes, kept for its time-to-live whatever the rooms do): it still counts in the total, so
   * other results go first. Released with {@link release} like any hold.
   */
  pin(value: T, holder: string): void {
    this.#hold(value, () => this.#sizeOf(value), holder, () => {}, true);
  }

  /** Pins `token`, counted as `bytes` (a file kept elsewhere whose bytes the host answers for). */
  pinBytes(token: object, bytes: number, holder: string): void {
    this.#hold(token, () => bytes, holder, () => {}, true);
  }

  /** Bytes of the values held under a pin. */
  get pinnedBytes(): number {
    return this.#pinnedBytes;
  }

  /** Bytes that pinning `values` would add (those pinned already count nothing, each value once). */
  unpinnedBytes(values: Iterable<T>): number {
    let bytes = 0;
    for (const value of new Set(values)) {
      const held = this.#held.get(value);
      if (!held) bytes += this.#sizeOf(value) + (this.#attached.get(value as object) ?? 0);
      else if (!held.pins?.size) bytes += held.bytes;
    }
    return bytes;
  }

  /** Whether `bytes` more can be pinned without pins passing the budget. */
  pinnable(bytes: number): boolean {
    return this.#pinnedBytes + bytes <= this.maxBytes;
  }

  /** Values held as dependents of another (each dependent once): what the budget still points at. */
  get dependentCount(): number {
    return this.#sources.size;
  }

  #hold(value: T | object, sizeOf: () => number, holder: string, onEvict: EvictListener, pinned = false): void {
    let held = this.#held.get(value);
    if (held) {
      this.#held.delete(value);
    } else {
      held = { bytes: sizeOf() + (this.#attached.get(value as object) ?? 0), holders: new Map() };
      this.#totalBytes += held.bytes;
    }
    this.#held.set(value, held);
    held.holders.set(holder, onEvict);
    if (pinned) {
      if (!held.pins?.size) this.#pinnedBytes += held.bytes;
      (held.pins ??= new Set()).add(holder);
    }
    this.#evictOverBudget();
  }

  /** `holder` no longer keeps `value`; the bytes are freed once no holder is left. */
  release(value: T | object, holder: string): void {
    const held = this.#held.get(value);
    if (held?.pins?.delete(holder) && held.pins.size === 0) this.#pinnedBytes -= held.bytes;
    if (!held || !held.holders.delete(holder) || held.holders.size > 0) return;
    this.#held.delete(value);
    this.#freed(held.bytes);
    this.#leaveSource(value);
    this.#dropDependents(value);
  }

  /**
   * A dependent dropped on its own (least recently used, or released) leaves its source's
   * set: the set would otherwise keep every variant ever made of a long-lived result alive.
   */
  #leaveSource(value: T | object): void {
    const source = this.#sources.get(value as object);
    if (source === undefined) return;
    this.#sources.delete(value as object);
    const set = this.#dependents.get(source);
    if (!set) return;
    set.delete(value as object);
    if (set.size === 0) this.#dependents.delete(source);
  }

  /** Drops what was held because `value` was, telling each holder. */
  #dropDependents(value: T | object): void {
    const set = this.#dependents.get(value);
    if (!set) return;
    this.#dependents.delete(value);
    for (const dependent of set) {
      this.#sources.delete(dependent);
      const held = this.#held.get(dependent);
      // A pinned value outlives what it was made from.
      if (!held || held.pins?.size) continue;
      this.#held.delete(dependent);
      this.#freed(held.bytes);
      for (const onEvict of held.holders.values()) onEvict();
      this.#dropDependents(dependent);
    }
  }

  #freed(bytes: number): void {
    this.#totalBytes -= bytes;
    this.#freedSinceCollect += bytes;
    if (this.#freedSinceCollect < COLLECT_AFTER_BYTES) return;
    this.#gc.freed(this.#freedSinceCollect);
    this.#freedSinceCollect = 0;
  }

  /**
   * Counts `bytes` more for `value` (made from it, e.g. its JSON encoding) for as long as it is
   * held, now and whenever it is held later; may evict least recently used results, `value`
   * included. A negative `bytes` gives them back.
   */
  attach(value: T, bytes: number): void {
    const key = value as object;
    const total = Math.max(0, (this.#attached.get(key) ?? 0) + bytes);
    if (total === 0) this.#attached.delete(key);
    else this.#attached.set(key, total);
    const held = this.#held.get(value);
    if (!held) return;
    const before = held.bytes;
    held.bytes = this.#sizeOf(value) + total;
    this.#totalBytes += held.bytes - before;
    if (held.pins?.size) this.#pinnedBytes += held.bytes - before;
    this.#evictOverBudget();
  }

  /** Who keeps `value` now (`room:<id>`, `job:<id>`, ...); none when it is not held. */
  holdersOf(value: T): string[] {
    return [...(this.#held.get(value)?.holders.keys() ?? [])];
  }

  /** Whether some holder still keeps `value` (it has not been released or evicted). */
  holds(value: T): boolean {
    return this.#held.has(value);
  }

  /** Marks `value` as just used (a cache hit, a result read). */
  touch(value: T | object): void {
    const held = this.#held.get(value);
    if (!held) return;
    this.#held.delete(value);
    this.#held.set(value, held);
  }

  /**
   * Drops least recently used results until `bytes` more would fit, before something that size
   * is read into memory (a file from the data folder): its room is freed first, so it never sits
   * in memory beside the results it then evicts. Nothing is dropped for more than the whole
   * budget (that is not kept anyway), nor what holds no bytes.
   */
  makeRoom(bytes: number): void {
    if (bytes <= this.maxBytes) this.#evictOverBudget(bytes);
  }

  #evictOverBudget(room = 0): void {
    for (const [value, held] of this.#held) {
      if (this.#totalBytes + room <= this.maxBytes) return;
      if (held.pins?.size || (room > 0 && held.bytes === 0)) continue;
      this.#held.delete(value);
      this.#freed(held.bytes);
      this.#leaveSource(value);
      for (const onEvict of held.holders.values()) onEvict();
      this.#dropDependents(value);
    }
  }
}

/**
 * `making` kept in `table` under `key`, so every ask while it runs and after waits for the same
 * value; `made` is called with it (to hold it in the budget), and a failure takes it out of
 * `table`, so the next ask makes it again.
 */
export function keptWhileMade<K, V>(table: Map<K, Promise<V>>, key: K, making: Promise<V>, made: (value: V) => void): Promise<V> {
  const kept = making.then(
    (value) => {
      made(value);
      return value;
    },
    (error: unknown) => {
      table.delete(key);
      throw error;
    },
  );
  table.set(key, kept);
  return kept;
}
