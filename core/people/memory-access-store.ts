/**
 * @module memory-access-store
 * Rooms' access in one host's memory, gone with it (as its rooms are).
 */
import type { AccessStore } from './access-store.ts';
import { withoutUser, type RoomAccess } from './room-access.ts';
import { ADMIN_NAME } from './users.ts';

const copy = (access: RoomAccess): RoomAccess => ({ ...access, editors: [...access.editors], viewers: [...access.viewers] });

export class MemoryAccessStore implements AccessStore {
  #rooms = new Map<string, RoomAccess>();

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
    return { access: copy(access), changed: true };
  }

  async forget(name: string) {
    const changed: { roomId: string; access: RoomAccess }[] = [];
    for (const [roomId, access] of this.#rooms) {
      const without = withoutUser(access, name, ADMIN_NAME);
      if (!without) continue;
      this.#rooms.set(roomId, without);
      changed.push({ roomId, access: copy(without) });
    }
    return changed;
  }

  async close(): Promise<void> {}
}
