/**
 * @module turn-batches
 * Work over many items done a batch per turn of the event loop, so that no turn holds the
 * thread for long: between two batches every other request gets its turn (`/healthz` above all).
 * What a batch costs decides its size: a few milliseconds of work on an idle core, which a
 * loaded machine stretches several times over.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** `each` of every batch of `size` items of `items`, in order, a batch per turn. */
export async function inTurns<T, R>(items: readonly T[], size: number, each: (batch: readonly T[], at: number) => R): Promise<R[]> {
  const out: R[] = [];
  for (let at = 0; at < items.length; at += size) {
    if (at > 0) await nextTurn();
    out.push(each(items.slice(at, at + size), at));
  }
  return out;
}

/** The items of `source` (an iterator doing work per item: a store's range decoding) taken `size` per turn, until `enough` says so. */
export async function takeInTurns<T>(source: Iterable<T>, size: number, enough: (taken: readonly T[]) => boolean = () => false): Promise<T[]> {
  const taken: T[] = [];
  let inTurn = 0;
  for (const item of source) {
    taken.push(item);
    if (enough(taken)) break;
    if (++inTurn === size) {
      inTurn = 0;
      await nextTurn();
    }
  }
  return taken;
}
