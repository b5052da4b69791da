/**
 * @module memory-room-board
 * The RoomBoard of a lone host: views and shown specimens in its memory (bounded in rooms,
 * the least recently set going first), a shown specimen for the room cache's time-to-live,
 * each change logged in the same turn, and events published on the host's own hub.
 */
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { entryShown, viewChanged } from '../history/room-changes.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import type { RoomBoard, ShownSpecimen } from './room-board.ts';
import type { RoomView } from './room-view.ts';

/** Rooms whose view or shown specimen one host keeps; the least recently set go past it. */
const MAX_ROOMS = 10_000;

function setBounded<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > MAX_ROOMS) map.delete(map.keys().next().value!);
}

export class MemoryRoomBoard implements RoomBoard {
  #views = new Map<string, RoomView>();
  #shown = new Map<string, ShownSpecimen & { expiresAt: number }>();
  #hub: EventHub;
  #ttlMs: number;
  #log: LogWriter;

  /** `ttlSeconds`: how long a shown specimen stays the room's entry (the room cache's time-to-live); `log`: the rooms' logs in memory. */
  constructor(hub: EventHub, ttlSeconds: number, log: LogWriter) {
    this.#hub = hub;
    this.#ttlMs = ttlSeconds * 1000;
    this.#log = log;
  }

  async view(roomId: string): Promise<RoomView> {
    return this.#views.get(roomId) ?? {};
  }

  async setView(roomId: string, view: RoomView): Promise<void> {
    if (Object.keys(view).length === 0) this.#views.delete(roomId);
    else setBounded(this.#views, roomId, view);
    this.#log.appendNow(roomId, viewChanged(view));
  }

  async shown(roomId: string): Promise<ShownSpecimen | null> {
    const shown = this.#shown.get(roomId);
    if (!shown) return null;
    if (shown.expiresAt > Date.now()) return { specimen_id: shown.specimen_id, type: shown.type, since: shown.since };
    this.#shown.delete(roomId);
    return null;
  }

  async setShown(roomId: string, shown: ShownSpecimen): Promise<void> {
    setBounded(this.#shown, roomId, { ...shown, expiresAt: Date.now() + this.#ttlMs });
    this.#log.appendNow(roomId, entryShown(shown));
  }

  async clearShown(roomId: string): Promise<boolean> {
    return this.#shown.delete(roomId);
  }

  async announce(roomId: string, event: string, data: unknown): Promise<void> {
    this.#hub.publish(roomChannel(roomId), { event, data });
  }
}
