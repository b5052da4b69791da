/**
 * @module snapshot-rooms
 * Whose a snapshot is: the rooms it was taken of. A snapshot is named by its content, so two
 * rooms holding the same thing (two empty rooms, say) taken give one snapshot, and it belongs
 * to both: whoever may read one of them may read it, and to anyone else it is not there. A
 * snapshot with no rooms is no room's and anyone may read it: one taken in from a session file
 * that this host did not hold already (whoever holds the file could hand its bytes to anyone),
 * or kept from before rooms were recorded. Past {@link MAX_SNAPSHOT_ROOMS} rooms a snapshot becomes no room's too: to make that
 * many rooms hold the same content, one must already know it, so nothing is given away.
 */
import type { SnapshotRecord } from './snapshot-store.ts';

/** The most rooms a snapshot records before it becomes no room's. */
export const MAX_SNAPSHOT_ROOMS = 100;

/** `{rooms}` when the record names rooms, else nothing (spread into a record as it is stored). */
export function roomsOf(record: Pick<SnapshotRecord, 'rooms'>): { rooms?: string[] } {
  return Array.isArray(record.rooms) ? { rooms: record.rooms } : {};
}

/** The rooms of a snapshot once taken of `roomId`, given the record already kept under its id (null: none). */
export function roomsAfterTaking(known: Pick<SnapshotRecord, 'rooms'> | null, roomId: string): string[] | undefined {
  if (!known) return [roomId];
  // No room's stays no room's: its content was free to anyone already.
  if (!Array.isArray(known.rooms)) return undefined;
  if (known.rooms.includes(roomId)) return known.rooms;
  return known.rooms.length >= MAX_SNAPSHOT_ROOMS ? undefined : [...known.rooms, roomId];
}
