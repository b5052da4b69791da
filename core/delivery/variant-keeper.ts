/**
 * @module variant-keeper
 * What is made from a result for its deliveries is made once and kept beside it: concurrent
 * first asks share the one making, later ones reuse it. Each made value counts in the host's
 * result budget as a dependent of what it came from, so it goes when that goes (or earlier,
 * least recently used first). One keeper counts everything it made, whoever asked it.
 */
import { keptWhileMade, type ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** The values made from one owner, by key. */
export type Memo<V> = Map<string, Promise<V>>;

export class VariantKeeper {
  readonly budget: ResultBudget<StoredResult>;
  /** Values made since start (the one-off costs clients did not pay twice). */
  made = 0;

  constructor(budget: ResultBudget<StoredResult>) {
    this.budget = budget;
  }

  /** The kept promise of `key` on `owner`, made once with `make`. */
  once<V extends object>(memos: WeakMap<object, Memo<V>>, owner: object, key: string, make: () => Promise<V>, sizeOf: (value: V) => number): Promise<V> {
    let memo = memos.get(owner);
    if (!memo) memos.set(owner, (memo = new Map()));
    // Using a variant uses what it came from: a file version is kept as long as its variants are read.
    this.budget.touch(owner);
    const existing = memo.get(key);
    if (existing) {
      void existing.then(
        (value) => this.budget.touch(value),
        () => {},
      );
      return existing;
    }
    const table = memo;
    return keptWhileMade(table, key, make(), (value) => {
      this.made++;
      // The budget may drop it at once (larger than the whole budget): the waiting
      // requests still get it, later ones make it again.
      if (value !== owner) this.budget.holdDependent(value, sizeOf(value), owner, `variant:${key}`, () => table.delete(key));
    });
  }
}
