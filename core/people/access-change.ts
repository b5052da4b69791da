/**
 * @module access-change
 * `PUT /api/rooms/{room}/access` decided: someone unknown is refused (401); an open room is
 * closed by the first user who sets its access, who becomes its owner (an admin may name
 * another); a closed room's access is changed by its owner (who may hand it on) or an admin.
 * The owner the change was decided on is checked again as it is stored, so of two people
 * closing an open room at once exactly one becomes its owner.
 */
import { createHostError } from '../errors.ts';
import type { AccessStore } from './access-store.ts';
import { accessRefusal, checkAccessBody, type RoomAccess } from './room-access.ts';
import type { Identity } from './users.ts';

const ATTEMPTS = 5;

function nextOwner(current: RoomAccess | null, who: Identity, named: string | null): string {
  if (!current) return who.admin && named ? named : who.name;
  return named ?? current.owner;
}

export async function changeAccess(store: AccessStore, roomId: string, who: Identity | null, body: unknown): Promise<RoomAccess> {
  if (!who) throw createHostError('SPC_ERR_ACCESS_SIGN_IN', roomId);
  const change = checkAccessBody(body);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.get(roomId);
    if (current && !who.admin && who.name !== current.owner) {
      // Someone who may not even read the room is told it is not there.
      throw accessRefusal(roomId, current, who, 'read') ?? createHostError('SPC_ERR_ACCESS_OWNER_ONLY', roomId, current.owner);
    }
    const access: RoomAccess = { ...change, owner: nextOwner(current, who, change.owner) };
    const done = await store.set(roomId, access, current?.owner ?? null);
    if (done.changed) return access;
  }
  const now = await store.get(roomId);
  throw createHostError('SPC_ERR_ACCESS_OWNER_ONLY', roomId, now?.owner ?? '?');
}
