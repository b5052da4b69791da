/**
 * @module disk-import-staging
 * What the disk annotation store needs to write a large batch in several transactions and keep
 * it all-or-nothing: the range of ids an import under way holds hidden in a room (kept in the
 * `annotation-imports` database, so an import a crash stopped is found when the store opens
 * again), the test of a mark against it, and the removal of an import that did not end.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';

/** The ids an import in progress has reserved in a room, `from` up to (without) `to`: hidden until it ends. */
export interface PendingImport {
  from: number;
  to: number;
}

/**
 * How large batches are written: from `from` points on (a mark of one point, or a polyline's
 * vertices), in transactions of `chunk` points (a polyline longer than that alone); `chunk` is
 * also the marks an interrupted import's removal takes a transaction.
 */
export interface Staging {
  from: number;
  chunk: number;
  /** Awaited after each written chunk (tests stop an import there, as a crash would). */
  afterChunk?: (written: number) => Promise<void>;
}

/** A batch of 5,000 points or more is staged, 2,000 points per transaction: a few milliseconds of the event loop each. */
export const STAGING: Staging = { from: 5000, chunk: 2000 };

/** The database of imports under way, by room. */
export function pendingImports(store: DataStore) {
  return store.db<PendingImport>(DISK.annotationImports.name);
}

/** Whether a mark id is shown beside `pending`: not one of the ids it holds hidden. */
export function shownBeside(pending: PendingImport | undefined): (id: string) => boolean {
  if (!pending) return () => true;
  return (id) => {
    if (!/^\d{1,15}$/.test(id)) return true;
    const n = Number(id);
    return n < pending.from || n >= pending.to;
  };
}

/** Removes the hidden marks of an import that did not end, `chunk` per transaction, then its reservation. */
export async function removePending(store: DataStore, roomId: string, pending: PendingImport, chunk: number): Promise<void> {
  const marks = store.db(DISK.annotations.name);
  for (let from = pending.from; from < pending.to; from += chunk) {
    await store.write(() => {
      for (let id = from; id < Math.min(pending.to, from + chunk); id++) void marks.remove(DISK.annotations.mark(roomId, String(id)));
    });
  }
  await store.write(() => void pendingImports(store).remove(roomId));
}

/** Removes what is left of the room's import that did not end (a full disk refused its removal at the time), if anything. */
export async function removeLeftover(store: DataStore, roomId: string, chunk: number): Promise<void> {
  const left = pendingImports(store).get(roomId);
  if (left) await removePending(store, roomId, left, chunk);
}

/** Removes every import a crash (or a failed write) left half written: nothing of them was ever shown. */
export async function clearInterrupted(store: DataStore, chunk: number): Promise<void> {
  for (const { key, value } of [...pendingImports(store).getRange({})]) await removePending(store, String(key), value, chunk);
}
