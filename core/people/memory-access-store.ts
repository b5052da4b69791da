/**
 * @module memory-access-store
 * Rooms' access in one host's memory, gone with it (as its rooms are); each change logged in
 * the room's log in the same turn.
 */
import { accessSet } from '../history/room-changes.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import type { AccessStore } from './access-store.ts';
import { withoutUser, type RoomAccess } from './room-access.ts';
import { ADMIN_NAME } from './users.ts';

const copy = (access: RoomAccess): RoomAccess => ({ ...access, editors: [...access.editors], viewers: [...access.viewers] });

export class MemoryAccessStore implements AccessStore {
  #rooms = new Map<string, RoomAccess>();
  #log: LogWriter;

  /** `log`: the rooms' logs in memory. */
  constructor(log: LogWriter) {
    this.#log = log;
  }

  async get(roomId: string): Promise<RoomAccess | null> {
    return this.known(roomId);
  }

  known(roomId: string): RoomAccess | null {
    const access = this.#rooms.get(roomId);
    return access ? copy(access) : null;
  }

  async set(roomId: string, access: RoomAccess, expectedOwner: string | null) {
    const current = this.#rooms.get(roomId) ?? null;
    if ((current?.owner ?? null) !== expectedOwner) return { access: current ? copy(current) : null, changed: false };
    this.#rooms.set(roomId, copy(access));
    this.#log.appendNow(roomId, accessSet(copy(access)));
    return { access: copy(access), changed: true };
  }

  async forget(name: string) {
    const changed: { roomId: string; access: RoomAccess }[] = [];
    for (const [roomId, access] of this.#rooms) {
      const without = withoutUser(access, name, ADMIN_NAME);
      if (!without) continue;
      this.#rooms.set(roomId, without);
      this.#log.appendNow(roomId, accessSet(copy(without)));
      changed.push({ roomId, access: copy(without) });
    }
    return changed;
  }

  async close(): Promise<void> {}
}
