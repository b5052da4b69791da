/**
 * http/ops/gc-tally.ts: the garbage collections a host makes before /metrics is first asked
 * for are handed to prom-client's histogram with the same count, bucket and sum per kind.
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { GC_BUCKETS, GcTally } from '../../core/http/ops/gc-tally.ts';

/** A young-generation collection on demand (the flag is read when a new context is made; it is put back for the files after this one). */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
setFlagsFromString('--no-expose-gc');
const collect = () => gc({ type: 'minor' });

/** Per kind number, per bucket (the last past every bound): count and summed seconds. */
type Figures = Map<number, { counts: number[]; sum: number }>;

function add(figures: Figures, kind: number, seconds: number): void {
  let of = figures.get(kind);
  if (!of) figures.set(kind, (of = { counts: new Array<number>(GC_BUCKETS.length + 1).fill(0), sum: 0 }));
  const at = GC_BUCKETS.findIndex((bound) => seconds <= bound);
  of.counts[at < 0 ? GC_BUCKETS.length : at]! += 1;
  of.sum += seconds;
}

describe('GcTally', () => {
  it('hands over every collection since it started, bucket by bucket, then stops counting', async () => {
    const tally = new GcTally();
    // Every collection reported, as a histogram observing from the start would have seen them.
    const expected: Figures = new Map();
    let reported = () => {};
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { detail: { kind: number } })[]) add(expected, entry.detail.kind, entry.duration / 1000);
      reported();
    });
    observer.observe({ entryTypes: ['gc'] });
    for (let i = 0; i < 3; i++) {
      // Both observers are called in the same turn; the next one lets the tally's have run.
      await new Promise<void>((resolve) => {
        reported = () => setImmediate(resolve);
        collect();
      });
    }
    observer.disconnect();
    const kinds = new Map([[1, 'minor'], [2, 'major'], [4, 'incremental'], [8, 'weakcb']]);
    const got: Figures = new Map();
    tally.replay((kind, seconds) => add(got, [...kinds].find(([, name]) => name === kind)![0], seconds));
    expect(got.get(1)!.counts.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(3);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [kind, figures] of expected) {
      expect(got.get(kind)!.counts).toEqual(figures.counts);
      expect(got.get(kind)!.sum).toBeCloseTo(figures.sum, 9);
    }
    collect();
    const after: unknown[] = [];
    tally.replay((kind) => after.push(kind));
    expect(after).toEqual([]);
  });
});
