/**
 * @module disk-room-board
 * The RoomBoard of a lone host with a data folder: each room's view and shown specimen a
 * record of the `rooms` database (a shown specimen for the room cache's time-to-live, as in
 * memory), written with its log entry in one transaction, so a restarted host shows every room
 * as it was and its log says how it came to be; events on the host's own hub.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { entryShown, viewChanged } from '../history/room-changes.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import type { RoomBoard, ShownSpecimen } from './room-board.ts';
import type { RoomView } from './room-view.ts';

type Stored = RoomView | (ShownSpecimen & { expiresAt: number });

export class DiskRoomBoard implements RoomBoard {
  #store: DataStore;
  #hub: EventHub;
  #ttlMs: number;
  #log: LogWriter;

  /** `ttlSeconds`: how long a shown specimen stays the room's entry (the room cache's time-to-live); `log`: the rooms' logs in the same store. */
  constructor(store: DataStore, hub: EventHub, ttlSeconds: number, log: LogWriter) {
    this.#store = store;
    this.#hub = hub;
    this.#ttlMs = ttlSeconds * 1000;
    this.#log = log;
  }

  get #db() {
    return this.#store.db<Stored>(DISK.rooms.name);
  }

  async view(roomId: string): Promise<RoomView> {
    return (this.#db.get(DISK.rooms.view(roomId)) as RoomView | undefined) ?? {};
  }

  async setView(roomId: string, view: RoomView): Promise<void> {
    const key = DISK.rooms.view(roomId);
    await this.#store.write(() => {
      if (Object.keys(view).length === 0) void this.#db.remove(key);
      else void this.#db.put(key, view);
      this.#log.appendNow(roomId, viewChanged(view));
    });
  }

  async shown(roomId: string): Promise<ShownSpecimen | null> {
    const shown = this.#db.get(DISK.rooms.shown(roomId)) as (ShownSpecimen & { expiresAt: number }) | undefined;
    if (!shown || shown.expiresAt <= Date.now()) return null;
    return { specimen_id: shown.specimen_id, type: shown.type, since: shown.since };
  }

  async setShown(roomId: string, shown: ShownSpecimen): Promise<void> {
    const record = { specimen_id: shown.specimen_id, type: shown.type, since: shown.since, expiresAt: Date.now() + this.#ttlMs };
    await this.#store.write(() => {
      void this.#db.put(DISK.rooms.shown(roomId), record);
      this.#log.appendNow(roomId, entryShown(shown));
    });
  }

  async clearShown(roomId: string): Promise<boolean> {
    const had = (await this.shown(roomId)) !== null;
    await this.#store.write(() => this.#db.remove(DISK.rooms.shown(roomId)));
    return had;
  }

  async announce(roomId: string, event: string, data: unknown): Promise<void> {
    this.#hub.publish(roomChannel(roomId), { event, data });
  }
}
