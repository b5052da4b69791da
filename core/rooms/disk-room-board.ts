/**
 * @module disk-room-board
 * The RoomBoard of a lone host with a data folder: each room's view and shown specimen a
 * record of the `rooms` database (a shown specimen for the room cache's time-to-live, as in
 * memory), so a restarted host shows every room as it was; events on the host's own hub.
 */
import type { DataStore } from '../durable/data-store.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { RoomBoard, ShownSpecimen } from './room-board.ts';
import type { RoomView } from './room-view.ts';

type Stored = RoomView | (ShownSpecimen & { expiresAt: number });

export class DiskRoomBoard implements RoomBoard {
  #store: DataStore;
  #hub: EventHub;
  #ttlMs: number;

  /** `ttlSeconds`: how long a shown specimen stays the room's entry (the room cache's time-to-live). */
  constructor(store: DataStore, hub: EventHub, ttlSeconds: number) {
    this.#store = store;
    this.#hub = hub;
    this.#ttlMs = ttlSeconds * 1000;
  }

  get #db() {
    return this.#store.db<Stored>('rooms');
  }

  async view(roomId: string): Promise<RoomView> {
    return (this.#db.get([roomId, 'view']) as RoomView | undefined) ?? {};
  }

  async setView(roomId: string, view: RoomView): Promise<void> {
    const key = [roomId, 'view'];
    await this.#store.write(() => (Object.keys(view).length === 0 ? this.#db.remove(key) : this.#db.put(key, view)));
  }

  async shown(roomId: string): Promise<ShownSpecimen | null> {
    const shown = this.#db.get([roomId, 'shown']) as (ShownSpecimen & { expiresAt: number }) | undefined;
    if (!shown || shown.expiresAt <= Date.now()) return null;
    return { specimen_id: shown.specimen_id, type: shown.type, since: shown.since };
  }

  async setShown(roomId: string, shown: ShownSpecimen): Promise<void> {
    const record = { specimen_id: shown.specimen_id, type: shown.type, since: shown.since, expiresAt: Date.now() + this.#ttlMs };
    await this.#store.write(() => this.#db.put([roomId, 'shown'], record));
  }

  async clearShown(roomId: string): Promise<boolean> {
    const had = (await this.shown(roomId)) !== null;
    await this.#store.write(() => this.#db.remove([roomId, 'shown']));
    return had;
  }

  async announce(roomId: string, event: string, data: unknown): Promise<void> {
    this.#hub.publish(roomChannel(roomId), { event, data });
  }
}
