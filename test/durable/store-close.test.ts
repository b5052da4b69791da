/**
 * @module store-close.test
 * Closing a data store while a write is under way: what awaited the write reads the store next
 * (as a layer's run tells its room once its result is written), and that read finds the store
 * still open, in place or batched, rather than a closed store whose reader throws later from a
 * timer and ends the process.
 */
import { describe, expect, it } from 'vitest';
import { openTempDataStore } from '../helpers/temp-data-store.ts';

describe('a data store closed while writes are under way', () => {
  it('lets what awaited each write read the store before it closes', async () => {
    const store = await openTempDataStore();
    const db = store.db<number>('close-test');
    const reads: (number | undefined)[] = [];
    // A write alone (in place), then two together (the second batched), each read back once it is acknowledged.
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
    expect(reads.sort()).toEqual([1, 1, 2, 2, 3, 3]);
  });
});
