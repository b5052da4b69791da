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

/**
 * `items` cut into runs in order, each weighing at most `most` by `weightOf` (an item heavier
 * alone is a run of its own): work whose cost follows what an item holds, not how many items
 * there are (a polyline of 9,000 points against a mark of one), taken a run per turn.
 */
export function weighedRuns<T>(items: readonly T[], most: number, weightOf: (item: T) => number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let weight = 0;
  for (const item of items) {
    const w = weightOf(item);
    if (run.length > 0 && weight + w > most) {
      runs.push(run);
      run = [];
      weight = 0;
    }
    run.push(item);
    weight += w;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** `each` of every run of `items` weighing at most `most` (see {@link weighedRuns}), in order, a run per turn; `at` is the run's first index. */
export async function inWeighedTurns<T, R>(
  items: readonly T[],
  most: number,
  weightOf: (item: T) => number,
  each: (run: readonly T[], at: number) => R,
): Promise<R[]> {
  const out: R[] = [];
  let at = 0;
  for (const run of weighedRuns(items, most, weightOf)) {
    if (at > 0) await nextTurn();
    out.push(each(run, at));
    at += run.length;
  }
  return out;
}

/** Bytes copied per turn by {@link joinInTurns}: a few milliseconds even into fresh memory. */
const JOIN_PER_TURN = 2 * 1024 * 1024;

/**
 * `chunks` one after another in `into` (a new buffer of their length by default), a few MiB
 * copied per turn: 16 MiB copied at once into fresh memory held the event loop about 0.1 s,
 * most of it the kernel handing out pages.
 */
export async function joinInTurns(chunks: readonly Uint8Array[], into?: Buffer): Promise<Buffer> {
  const bytes = into ?? Buffer.allocUnsafeSlow(chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let at = 0;
  let sinceTurn = 0;
  for (const chunk of chunks) {
    if (sinceTurn >= JOIN_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
    bytes.set(chunk, at);
    at += chunk.byteLength;
    sinceTurn += chunk.byteLength;
  }
  return bytes;
}
