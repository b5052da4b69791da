/**
 * @module disk-access-store
 * Rooms' access in a lone host's data folder (the `access` database of its store), so a room
 * closed before a restart is closed after it. The compare-and-set on the owner runs inside one
 * write transaction, which the store commits and flushes before the change is answered.
 */
import type { DataStore } from '../durable/data-store.ts';
import type { AccessStore } from './access-store.ts';
import type { RoomAccess } from './room-access.ts';

export class DiskAccessStore implements AccessStore {
  #store: DataStore;

  constructor(store: DataStore) {
    this.#store = store;
  }

  #db() {
    return this.#store.db<RoomAccess>('access');
  }

  async get(roomId: string): Promise<RoomAccess | null> {
    return this.#db().get(roomId) ?? null;
  }

  async set(roomId: string, access: RoomAccess, expectedOwner: string | null) {
    const db = this.#db();
    return this.#store.write(() => {
      const current = db.get(roomId) ?? null;
      if ((current?.owner ?? null) !== expectedOwner) return { access: current, changed: false };
      void db.put(roomId, access);
      return { access, changed: true };
    });
  }

  async close(): Promise<void> {}
}
