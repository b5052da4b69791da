/**
 * @module result-rooms
 * The room a result is of when it came from an array published for a room (`room.add(array)`):
 * its file's result carries that room wherever its id is asked for, so a door that finds results
 * by id (a mesh source, an OME-Zarr store) answers whoever may read the room, and no one else.
 */
import type { StoredResult } from './stored-result.ts';

const roomOfResult = new WeakMap<StoredResult, string>();

/** Marks `result` as room `room`'s (nothing when the file was published for everyone). */
export function markRoomOf(result: StoredResult, room: string | undefined): void {
  if (room !== undefined) roomOfResult.set(result, room);
}

/** The room `result` was published for, if any. */
export function markedRoomOf(result: StoredResult): string | undefined {
  return roomOfResult.get(result);
}
