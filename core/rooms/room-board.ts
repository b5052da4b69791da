/**
 * @module room-board
 * What a room holds beside its cache entry: its shared view, and the static specimen it shows
 * when one was put in front of everyone (a static specimen has no cache entry), and the way
 * its events reach its streams. Two implementations beside it: MemoryRoomBoard (one host;
 * events on its own hub) and RedisRoomBoard (a Redis service: kept in Redis, events through
 * its pub/sub to every host); both run test/conformance/room-board-cases.ts.
 */
import type { RoomView } from './room-view.ts';

/** A static specimen shown in a room, and since when (ms since the epoch). */
export interface ShownSpecimen {
  specimen_id: string;
  type: string;
  since: number;
}

export interface RoomBoard {
  view(roomId: string): Promise<RoomView>;
  /** Stores the room's view (an empty view removes it). */
  setView(roomId: string, view: RoomView): Promise<void>;
  shown(roomId: string): Promise<ShownSpecimen | null>;
  setShown(roomId: string, shown: ShownSpecimen): Promise<void>;
  /** Forgets the room's shown specimen; true when it had one. */
  clearShown(roomId: string): Promise<boolean>;
  /** Sends a room event to the room's streams on every host. */
  announce(roomId: string, event: string, data: unknown): Promise<void>;
}
