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
 * (its JSON encoding) are attached to it and count with it.
 */

import { IdleCollector } from '../memory/idle-gc.ts';

/** Called when the budget drops a result; the holder forgets it. */
export type EvictListener = () => void;

interface Held {
  bytes: number;
  holders: Map<string, EvictListener>;
}

/** Freed bytes after which the host collects garbage once it goes quiet. */
const COLLECT_AFTER_BYTES = 64 * 1024 * 1024;

export class ResultBudget<T> {
  readonly maxBytes: number;
  #sizeOf: (value: T) => number;
  /** In least-recently-used order: Map iteration order, refreshed by `touch`. */
  #held = new Map<T | object, Held>();
  /** Values held because another one is: dropped with it. */
  #dependents = new Map<T | object, Set<object>>();
  /** Bytes attached to values (held or not yet), counted whenever the value is held. */
  #attached = new WeakMap<object, number>();
  #totalBytes = 0;
  #freedSinceCollect = 0;
  #idleGc = new IdleCollector(1000);

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
    if (this.#held.has(source)) {
      let set = this.#dependents.get(source);
      if (!set) this.#dependents.set(source, (set = new Set()));
      set.add(value);
    }
    this.#hold(value, () => bytes, holder, onEvict);
  }

  #hold(value: T | object, sizeOf: () => number, holder: string, onEvict: EvictListener): void {
    let held = this.#held.get(value);
    if (held) {
      this.#held.delete(value);
    } else {
      held = { bytes: sizeOf() + (this.#attached.get(value as object) ?? 0), holders: new Map() };
      this.#totalBytes += held.bytes;
    }
    this.#held.set(value, held);
    held.holders.set(holder, onEvict);
    this.#evictOverBudget();
  }

  /** `holder` no longer keeps `value`; the bytes are freed once no holder is left. */
  release(value: T | object, holder: string): void {
    const held = this.#held.get(value);
    if (!held || !held.holders.delete(holder) || held.holders.size > 0) return;
    this.#held.delete(value);
    this.#freed(held.bytes);
    this.#dropDependents(value);
  }

  /** Drops what was held because `value` was, telling each holder. */
  #dropDependents(value: T | object): void {
    const set = this.#dependents.get(value);
    if (!set) return;
    this.#dependents.delete(value);
    for (const dependent of set) {
      const held = this.#held.get(dependent);
      if (!held) continue;
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
    this.#freedSinceCollect = 0;
    this.#idleGc.schedule();
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
    this.#evictOverBudget();
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

  #evictOverBudget(): void {
    for (const [value, held] of this.#held) {
      if (this.#totalBytes <= this.maxBytes) return;
      this.#held.delete(value);
      this.#freed(held.bytes);
      for (const onEvict of held.holders.values()) onEvict();
      this.#dropDependents(value);
    }
  }
}
