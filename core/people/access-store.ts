/**
 * @module access-store
 * Where rooms' access records are kept, one interface for every home: a host's memory
 * (memory-access-store.ts) and a Redis service (redis-access-store.ts); a data dir's home joins
 * the same way. A change is a compare-and-set on the owner, so two people closing an open room
 * at once cannot both become its owner.
 */
import type { RoomAccess } from './room-access.ts';

export interface AccessStore {
  /** The room's access, or null while it is open. */
  get(roomId: string): Promise<RoomAccess | null>;
  /**
   * The room's access when it is at hand without waiting (a host's memory, its data folder),
   * or undefined when only {@link get} can say (a service's): every request that names a room
   * asks, and a read answered in the same turn makes no promise on its way.
   */
  known(roomId: string): RoomAccess | null | undefined;
  /**
   * Stores `access` if the room's owner is still `expectedOwner` (null: the room is still open);
   * answers the access the room has afterwards and whether this change made it.
   */
  set(roomId: string, access: RoomAccess, expectedOwner: string | null): Promise<{ access: RoomAccess | null; changed: boolean }>;
  /**
   * Forgets user `name` (removed from the host) in every room's access (room-access.ts's
   * `withoutUser`); answers the rooms changed, each with its access now.
   */
  forget(name: string): Promise<{ roomId: string; access: RoomAccess }[]>;
  /** Forgets what it remembers of rooms' access, for a home another process may have changed (told with the users' changes). */
  reread?(): void;
  close(): Promise<void>;
}
