/**
 * @module warm-editing.test
 * Readying the encode threads for an edited layer: one warm-up task reaches every thread of the
 * pool (each starts a thread of its own), and each builds a small surface's levels through the
 * path a changed segment's takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPools, type Pools } from '../../core/workers/pool.ts';
import { editingRunners, runTask } from '../../core/workers/task-pool.ts';

describe('encode threads readied for editing', () => {
  let pools: Pools;
  beforeAll(async () => {
    pools = await createPools({ computeThreads: 1, encodeThreads: 3 });
  });
  afterAll(() => pools?.destroy());

  it('starts every thread of the pool and builds a surface with levels on each', async () => {
    expect(pools.encode.threads.length).toBe(0);
    await editingRunners(pools.encode).warmThreads();
    expect(pools.encode.threads.length).toBe(3);
    // What each thread answered: the levels of the ball's set, a coarser level than the finest included.
    expect(await runTask(pools.encode, { op: 'warmEditing' })).toBeGreaterThan(1);
  });
});
