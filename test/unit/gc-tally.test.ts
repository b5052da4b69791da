/**
 * http/ops/gc-tally.ts: the garbage collections a host makes before /metrics is first asked
 * for are handed to prom-client's histogram with the same count, bucket and sum per kind.
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
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

type GcEntry = PerformanceEntry & { detail: { kind: number } };
/** Node's kind numbers by the names the tally gives them. */
const KIND_NUMBERS = new Map([
  ['minor', constants.NODE_PERFORMANCE_GC_MINOR],
  ['major', constants.NODE_PERFORMANCE_GC_MAJOR],
  ['incremental', constants.NODE_PERFORMANCE_GC_INCREMENTAL],
  ['weakcb', constants.NODE_PERFORMANCE_GC_WEAKCB],
]);

/**
 * One trial: a tally counts while collections are forced. Node hands a collection's entry to
 * every observer in the same turn, so what this observer is handed while the tally counts, the
 * tally is handed too. An entry is made for the observers observing at the time and may wait in
 * their buffers (sometimes until the next collection): what waits in this one's when the tally
 * starts is not the tally's to count, and is taken out unseen. One still waiting when the tally
 * stops may have reached the tally already (a collection during this observer's callback is
 * handed to the tally in the same turn, to this one in the next), so such a trial is not clean.
 */
async function trial(): Promise<{ clean: boolean; handed: GcEntry[]; got: Figures; after: unknown[] }> {
  const handed: GcEntry[] = [];
  let counting = false;
  const observer = new PerformanceObserver((list) => {
    if (counting) handed.push(...(list.getEntries() as GcEntry[]));
  });
  observer.observe({ entryTypes: ['gc'] });
  const tally = new GcTally();
  observer.takeRecords();
  counting = true;
  const minors = () => handed.filter((entry) => entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR).length;
  for (let i = 0; i < 200 && minors() < 3; i++) {
    collect();
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  }
  const clean = observer.takeRecords().length === 0;
  counting = false;
  const got: Figures = new Map();
  tally.replay((kind, seconds) => add(got, KIND_NUMBERS.get(kind)!, seconds));
  observer.disconnect();
  collect();
  const after: unknown[] = [];
  tally.replay((kind) => after.push(kind));
  return { clean, handed, got, after };
}

describe('GcTally', () => {
  it('hands over every collection since it started, bucket by bucket, then stops counting', async () => {
    let result = await trial();
    for (let tries = 1; !result.clean && tries < 5; tries++) result = await trial();
    expect(result.clean, 'five trials in a row ended with an entry on its way').toBe(true);
    const { handed, got, after } = result;
    const expected: Figures = new Map();
    for (const entry of handed) add(expected, entry.detail.kind, entry.duration / 1000);
    expect(handed.filter((entry) => entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR).length).toBeGreaterThanOrEqual(3);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [kind, figures] of expected) {
      expect(got.get(kind)!.counts).toEqual(figures.counts);
      expect(got.get(kind)!.sum).toBeCloseTo(figures.sum, 9);
    }
    expect(after).toEqual([]);
  });
});
