/**
 * @module disk-access-store
 * Rooms' access in a lone host's data folder (the `access` database of its store), so a room
 * closed before a restart is closed after it. The compare-and-set on the owner runs inside one
 * write transaction, which the store commits and flushes before the change is answered.
 *
 * Every request that names a room reads its access, so the answers read are remembered: the
 * folder is locked to this host and every change goes through {@link DiskAccessStore.set},
 * which remembers what it committed. The memory is bounded (a client naming many rooms starts
 * it again, gaining nothing).
 */
import type { DataStore } from '../durable/data-store.ts';
import type { AccessStore } from './access-store.ts';
import type { RoomAccess } from './room-access.ts';

/** Rooms whose access is remembered; past it the memory starts again. */
const REMEMBERED_ROOMS = 4096;

export class DiskAccessStore implements AccessStore {
  #store: DataStore;
  /** Frozen copies, so no reader can change what the next one is told. */
  #known = new Map<string, Readonly<RoomAccess> | null>();

  constructor(store: DataStore) {
    this.#store = store;
  }

  #db() {
    return this.#store.db<RoomAccess>('access');
  }

  #remember(roomId: string, access: RoomAccess | null): RoomAccess | null {
    if (this.#known.size >= REMEMBERED_ROOMS) this.#known.clear();
    const kept = access ? Object.freeze({ ...access, editors: Object.freeze([...access.editors]), viewers: Object.freeze([...access.viewers]) }) : null;
    this.#known.set(roomId, kept as RoomAccess | null);
    return kept as RoomAccess | null;
  }

  async get(roomId: string): Promise<RoomAccess | null> {
    return this.known(roomId);
  }

  known(roomId: string): RoomAccess | null {
    const known = this.#known.get(roomId);
    if (known !== undefined) return known as RoomAccess | null;
    return this.#remember(roomId, this.#db().get(roomId) ?? null);
  }

  async set(roomId: string, access: RoomAccess, expectedOwner: string | null) {
    const db = this.#db();
    // Remembered as committed; what a failed write leaves is read again.
    this.#known.delete(roomId);
    const done = await this.#store.write(() => {
      const current = db.get(roomId) ?? null;
      if ((current?.owner ?? null) !== expectedOwner) return { access: current, changed: false };
      void db.put(roomId, access);
      return { access, changed: true };
    });
    this.#remember(roomId, done.access);
    return done;
  }

  async close(): Promise<void> {}
}
