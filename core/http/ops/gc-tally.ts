/**
 * @module gc-tally
 * Garbage collections counted from the host's start until /metrics is first asked for, when
 * prom-client's own collection histogram takes over (metrics-registry.ts builds the registry
 * only then): so the first scrape still counts every collection since the start. Counts per
 * kind and histogram bucket, with their summed durations: bounded memory however long the
 * host goes unscraped.
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';

/** prom-client's buckets for collection durations, in seconds; the registry is given the same. */
export const GC_BUCKETS: readonly number[] = [0.001, 0.01, 0.1, 1, 2, 5];

/** The kind names prom-client labels collections with. */
const KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

interface Slot {
  count: number;
  sum: number;
}

export class GcTally {
  /** Per kind, one slot per bucket and a last one past every bound. */
  readonly #slots = new Map<string, Slot[]>();
  readonly #observer: PerformanceObserver;

  constructor() {
    this.#observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.#add(entry);
    });
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  #add(entry: PerformanceEntry): void {
    const kind = KINDS[(entry as PerformanceEntry & { detail: { kind: number } }).detail.kind] ?? 'unknown';
    const seconds = entry.duration / 1000;
    let slots = this.#slots.get(kind);
    if (!slots) this.#slots.set(kind, (slots = GC_BUCKETS.map(() => ({ count: 0, sum: 0 })).concat({ count: 0, sum: 0 })));
    const at = GC_BUCKETS.findIndex((bound) => seconds <= bound);
    const slot = slots[at < 0 ? GC_BUCKETS.length : at]!;
    slot.count += 1;
    slot.sum += seconds;
  }

  /** Stops counting. */
  stop(): void {
    this.#observer.disconnect();
  }

  /**
   * Stops counting and hands what was counted to `observe`: per bucket, its count of
   * observations of the bucket's mean duration, which falls in that bucket, so the histogram
   * fed gets the same bucket counts, total count and sum as if it had seen each collection.
   */
  replay(observe: (kind: string, seconds: number) => void): void {
    this.stop();
    for (const [kind, slots] of this.#slots)
      for (const slot of slots) for (let i = 0; i < slot.count; i++) observe(kind, slot.sum / slot.count);
    this.#slots.clear();
  }
}
