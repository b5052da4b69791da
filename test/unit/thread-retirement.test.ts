/**
 * When the compute threads are retired: every RETIRE_AFTER_RELOADS reloads of new code, or
 * sooner once the new bundles add up to RETIRE_AFTER_BYTES; the count starts again after each.
 */
import { describe, expect, it } from 'vitest';
import { RETIRE_AFTER_BYTES, RETIRE_AFTER_RELOADS, ThreadRetirement } from '../../core/workers/thread-retirement.ts';

function counted(): { pool: { recycleWorkers(): Promise<void> }; recycled: () => number } {
  let recycled = 0;
  return { pool: { recycleWorkers: async () => void recycled++ }, recycled: () => recycled };
}

describe('thread retirement', () => {
  it('retires after so many small reloads, and counts again from there', () => {
    const { pool, recycled } = counted();
    const retirement = new ThreadRetirement(pool);
    for (let n = 1; n < RETIRE_AFTER_RELOADS; n++) retirement.reloaded(1000);
    expect(recycled()).toBe(0);
    retirement.reloaded(1000);
    expect(recycled()).toBe(1);
    for (let n = 1; n < RETIRE_AFTER_RELOADS; n++) retirement.reloaded(1000);
    expect(recycled()).toBe(1);
  });

  it('retires sooner when the new bundles are large', () => {
    const { pool, recycled } = counted();
    const retirement = new ThreadRetirement(pool);
    const megabyte = 1024 * 1024;
    const every = Math.ceil(RETIRE_AFTER_BYTES / megabyte);
    for (let n = 1; n < every; n++) retirement.reloaded(megabyte);
    expect(recycled()).toBe(0);
    retirement.reloaded(megabyte);
    expect(recycled()).toBe(1);
    expect(retirement.retired).toBe(1);
  });
});
