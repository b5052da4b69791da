import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobTally } from '../../core/jobs/job-tally.ts';
import type { JobStatus } from '../../core/wire/wire-types.ts';

// The tally's clock is the timers' own: faked, its 2 s ticks and 15 s quiet interval pass at once.
describe('JobTally', () => {
  let tally: JobTally | undefined;
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => {
    tally?.close();
    vi.useRealTimers();
  });

  it('sees a job end whose nudge it never heard: new jobs are read at once, quiet ones again later', async () => {
    const status = new Map<string, JobStatus>([['a', 'running'], ['b', 'running']]);
    const reads: string[] = [];
    tally = new JobTally(async (id) => (reads.push(id), status.get(id) ?? null), 600_000);
    // Both jobs end before any nudge could reach this host; nothing will ever nudge them.
    tally.add('a', 'running', () => () => {});
    tally.add('b', 'running', () => () => {});
    status.set('a', 'done');
    expect(tally.counts()).toEqual({ running: 2, done: 0, error: 0 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toEqual(['a', 'b']);
    expect(tally.counts()).toEqual({ running: 1, done: 1, error: 0 });
    status.set('b', 'error');
    await vi.advanceTimersByTimeAsync(12_000);
    expect(reads).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(reads).toEqual(['a', 'b', 'b']);
    expect(tally.counts()).toEqual({ running: 0, done: 1, error: 1 });
  });

  it('re-reads a nudged job at the next tick, once for any number of nudges', async () => {
    let reads = 0;
    let mark = () => {};
    tally = new JobTally(async () => (reads++, 'running'), 600_000);
    tally.add('a', 'running', (m) => ((mark = m), () => {}));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toBe(1);
    for (let i = 0; i < 50; i++) mark();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads).toBe(2);
  });

  it('forgets a finished job after the TTL and one whose record is gone at once', async () => {
    tally = new JobTally(async () => null, 5_000);
    tally.add('done', 'done');
    tally.add('gone', 'running', () => () => {});
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tally.counts()).toEqual({ running: 0, done: 1, error: 0 });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(tally.counts()).toEqual({ running: 0, done: 0, error: 0 });
  });
});
