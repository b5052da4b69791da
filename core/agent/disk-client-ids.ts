/**
 * @module disk-client-ids
 * Client ids on a lone host with a data folder (client-ids.ts): each room's next id kept in the
 * folder's store (`agentIds` of durable/disk-keys.ts), read and raised in one write transaction, so ids given at once
 * never meet, they go on growing after a restart, and a client that comes back is never given
 * an id it, or anyone, had before.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import type { ClientIds } from './client-ids.ts';

export class DiskClientIds implements ClientIds {
  #store: DataStore;

  constructor(store: DataStore) {
    this.#store = store;
  }

  next(roomId: string): Promise<number> {
    const db = this.#store.db<number>(DISK.agentIds.name);
    return this.#store.write(() => {
      const id = db.get(roomId) ?? 0;
      void db.put(roomId, id + 1);
      return id;
    });
  }
}
