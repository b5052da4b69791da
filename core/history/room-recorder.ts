/**
 * @module room-recorder
 * A room's log as the host's services use it: read by the routes and the agents' tools, and
 * appended to for what changes none of the room's stores (a replay started). Every change of a
 * store is appended by the store itself, in the write that makes it.
 */
import { currentActor } from './request-actor.ts';
import type { LogEntry, LogType, RoomLogStore } from './room-log-store.ts';

export class RoomRecorder {
  readonly store: RoomLogStore;

  constructor(store: RoomLogStore) {
    this.store = store;
  }

  /** Appends `change` of `type` to the room's log, by whoever makes it now. */
  record(roomId: string, type: LogType, change: Record<string, unknown>): Promise<LogEntry> {
    return this.store.append(roomId, { type, by: currentActor(), change });
  }
}
