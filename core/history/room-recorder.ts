/**
 * @module room-recorder
 * What every change of a room goes through to reach its log: stamps who made it (the actor of
 * request-actor.ts) and appends it. A log that cannot take an entry (Redis away) does not undo
 * the change already made: the failure is reported and the change stands.
 */
import { currentActor } from './request-actor.ts';
import type { LogEntry, LogType, RoomLogStore } from './room-log-store.ts';

export class RoomRecorder {
  readonly store: RoomLogStore;
  #warn: (message: string, error: unknown) => void;

  constructor(store: RoomLogStore, warn: (message: string, error: unknown) => void) {
    this.store = store;
    this.#warn = warn;
  }

  /** Appends `change` of `type` to the room's log; null when the log could not take it. */
  async record(roomId: string, type: LogType, change: Record<string, unknown>): Promise<LogEntry | null> {
    try {
      return await this.store.append(roomId, { type, by: currentActor(), change });
    } catch (error) {
      this.#warn(`room '${roomId}': a ${type} change was made but its log entry could not be kept`, error);
      return null;
    }
  }
}
