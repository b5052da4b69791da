/**
 * Serving misses leaves nothing behind: 12,000 computed misses (a slider dragged, one room)
 * through a real host's result service and its worker threads (the path every /data miss
 * takes after its parameters are checked), and afterwards the host holds one room entry,
 * no flight, no waiting run, and its memory (this process: the host, its compute and encode
 * threads) is back within a bound of where it was after a warm-up. A thread that kept 4 KiB
 * per run (a run's port never closed) would be past it; `npm run bench leak` serves 400,000
 * misses over HTTP for the long-run figure.
 */
import { describe, expect, it } from 'vitest';
import { collector } from '../../core/memory/idle-gc.ts';
import { computeResult } from '../../core/serving/result-source.ts';
import { harnessOf } from '../conformance/service-harness.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { rssMiB } from '../helpers/process-rss.ts';
import { waitFor } from '../helpers/wait-for.ts';

const MISSES = 12_000;
const WARM_UP = 2000;
const CONCURRENCY = 16;
/** Growth allowed after the misses (MiB): a leak of 4 KiB per miss would be ~47 MiB. */
const BOUND_MIB = 40;

describe('memory after many misses', () => {
  // A worker-thread round trip per miss: about ten seconds on a busy two-core machine.
  it('12,000 distinct misses leave the host as it was', async () => {
    const app = await createTestApp();
    const host = harnessOf(app);
    let next = 0;
    let computed = 0;
    const drive = async (until: number) => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < until) {
            const result = await computeResult(host.results, host.request('square', { note: `n${next++}` }, 'slider'));
            if (result.type === 'mesh') computed++;
          }
        }),
      );
    };
    const settledRss = () => {
      collector()!();
      return rssMiB(process.pid);
    };
    await drive(WARM_UP);
    const start = settledRss();
    await drive(WARM_UP + MISSES);
    expect(computed).toBe(WARM_UP + MISSES);
    expect(host.results.accessCounts.miss).toBe(WARM_UP + MISSES);
    const stats = (await app.inject({ method: 'GET', url: '/api/processing/cache/stats' })).json() as { total_entries: number };
    expect(stats.total_entries).toBe(1);
    expect(app.vitrine.resultFigures().entries).toBe(1);
    // The worker threads collect once they go quiet; the host's own heap is collected here.
    const end = await waitFor(() => {
      const rss = settledRss();
      return rss - start < BOUND_MIB ? rss : undefined;
    }, `resident memory back within ${BOUND_MIB} MiB of ${start.toFixed(0)} MiB`, 20_000, 250);
    expect(end - start).toBeLessThan(BOUND_MIB);
  });
});
