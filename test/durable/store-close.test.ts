/**
 * @module store-close.test
 * Closing a data store while writes are under way: what awaited a write reads the store next
 * (as a layer's run tells its room once its result is written), and that read finds the store
 * still open, whether the writes share one commit or queue behind another, rather than a closed store whose reader throws later from
 * a timer and ends the process.
 */
import { describe, expect, it } from 'vitest';
import type { DataStore } from '../../core/durable/data-store.ts';
import { openTempDataStore } from '../helpers/temp-data-store.ts';

/** Three writes at once, each followed by a read, a second write and a read; closes the store meanwhile and says what was read. */
async function closeWhileWriting(store: DataStore): Promise<(number | undefined)[]> {
  const db = store.db<number>('close-test');
  const reads: (number | undefined)[] = [];
  const writes = [1, 2, 3].map((value) =>
    store.write(() => db.put(`k${value}`, value)).then(async () => {
      reads.push(db.get(`k${value}`));
      // A write that leads to another, as a run's result leads to its room's entry.
      await store.write(() => db.put(`again${value}`, value));
      reads.push(db.get(`again${value}`));
    }),
  );
  await store.close();
  await Promise.all(writes);
  return reads.sort();
}

describe('a data store closed while writes are under way', () => {
  it('lets what awaited each write read the store before it closes', async () => {
    expect(await closeWhileWriting(await openTempDataStore())).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('and when they queue behind a slow write still under way', async () => {
    const store = await openTempDataStore();
    // Not awaited: the three writes below wait on lmdb-js's write thread for this one's commit.
    const slow = store.write(() => {
      const until = performance.now() + 60;
      while (performance.now() < until);
    });
    expect(await closeWhileWriting(store)).toEqual([1, 1, 2, 2, 3, 3]);
    await slow;
  });
});
