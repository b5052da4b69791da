/**
 * @module disk-access-store
 * Rooms' access in a lone host's data folder (the `access` database of its store), so a room
 * closed before a restart is closed after it. The compare-and-set on the owner runs inside one
 * write transaction with the change's entry in the room's log, which the store commits and
 * flushes before the change is answered.
 *
 * Every request that names a room reads its access, so the answers read are remembered: the
 * folder is locked to this host and every change goes through {@link DiskAccessStore.set},
 * which remembers what it committed, but for `vitrine users remove` beside it, which forgets the
 * user in every room's access before it removes the user: the host, told of the removal, reads
 * again ({@link DiskAccessStore.reread}). The memory is bounded (a client naming many rooms
 * starts it again, gaining nothing).
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { accessSet } from '../history/room-changes.ts';
import type { LogWriter } from '../history/room-log-store.ts';

/** What of a data folder's store rooms' access needs: its databases, and a write transaction (and whether one is running, for the rooms' log). */
export type AccessHome = Pick<DataStore, 'db' | 'write' | 'writing'>;
import type { AccessStore } from './access-store.ts';
import { withoutUser, type RoomAccess } from './room-access.ts';
import { ADMIN_NAME } from './users.ts';

/** Rooms whose access is remembered; past it the memory starts again. */
const REMEMBERED_ROOMS = 4096;

export class DiskAccessStore implements AccessStore {
  #store: AccessHome;
  #log: LogWriter;
  /** Frozen copies, so no reader can change what the next one is told. */
  #known = new Map<string, Readonly<RoomAccess> | null>();

  /** `log`: the rooms' logs in the same store. */
  constructor(store: AccessHome, log: LogWriter) {
    this.#store = store;
    this.#log = log;
  }

  #db() {
    return this.#store.db<RoomAccess>(DISK.access.name);
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
      this.#log.appendNow(roomId, accessSet(access));
      return { access, changed: true };
    });
    this.#remember(roomId, done.access);
    return done;
  }

  async forget(name: string) {
    const db = this.#db();
    // What is remembered is read again after: the change may touch any room.
    this.#known.clear();
    return this.#store.write(() => {
      const changed: { roomId: string; access: RoomAccess }[] = [];
      for (const { key, value } of db.getRange({})) {
        const without = typeof key === 'string' ? withoutUser(value, name, ADMIN_NAME) : null;
        if (without) changed.push({ roomId: key as string, access: without });
      }
      for (const { roomId, access } of changed) {
        void db.put(roomId, access);
        this.#log.appendNow(roomId, accessSet(access));
      }
      return changed;
    });
  }

  /** Forgets what it remembers: the folder's store was changed by another process (`vitrine users remove`). */
  reread(): void {
    this.#known.clear();
  }

  async close(): Promise<void> {}
}
