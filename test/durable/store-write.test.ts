/**
 * The data store's `write`, as every durable home relies on it: writes asked in the same turn
 * share a commit, yet a write whose work throws keeps nothing of itself and leaves the others'
 * changes kept; its caller gets its own error. Each work runs in its own caller's async context,
 * even when another write opened the batch it is committed in.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';

describe('a data store write', () => {
  it('keeps nothing of a work that throws, and every change of the writes beside it', async () => {
    let store = await openTempDataStore();
    const db = store.db<string>('scenes');
    const refused = new Error('refused after its first change');
    // Three writes queued in one turn: the middle one changes a key, then throws.
    const writes = [
      store.write(() => db.put(['a'], 'kept a')),
      store.write(() => {
        db.put(['b'], 'never kept');
        db.put(['a'], 'never kept either');
        throw refused;
      }),
      store.write(() => {
        db.put(['c'], 'kept c');
        return 'c done';
      }),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((write) => write.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1]).toEqual({ status: 'rejected', reason: refused });
    expect(settled[2]).toEqual({ status: 'fulfilled', value: 'c done' });
    store = await reopenDataStore(store);
    const again = store.db<string>('scenes');
    expect([again.get(['a']), again.get(['b']), again.get(['c'])]).toEqual(['kept a', undefined, 'kept c']);
  });

  it('runs each work in its own caller’s async context', async () => {
    const store = await openTempDataStore();
    const db = store.db<string>('scenes');
    const who = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ['ann', 'bo', 'cy'].map((name) => who.run(name, () => store.write(() => {
        db.put(['by', name], name);
        return who.getStore();
      }))),
    );
    expect(seen).toEqual(['ann', 'bo', 'cy']);
  });

  it('queues a write asked inside another write’s work behind it, in the same commit', async () => {
    const store = await openTempDataStore();
    const db = store.db<string>('scenes');
    const order: string[] = [];
    let inner: Promise<string> | undefined;
    const outer = await store.write(() => {
      inner = store.write(() => {
        order.push(`inner, the outer's change ${db.get(['outer']) ?? 'not'} seen`);
        db.put(['inner'], 'inner');
        return 'inner done';
      });
      order.push(`outer, still writing: ${store.writing}`);
      db.put(['outer'], 'outer');
      return 'outer done';
    });
    expect(outer).toBe('outer done');
    expect(await inner).toBe('inner done');
    expect(order).toEqual(['outer, still writing: true', 'inner, the outer\'s change outer seen']);
    expect([db.get(['inner']), db.get(['outer'])]).toEqual(['inner', 'outer']);
  });
});
