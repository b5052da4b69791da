/**
 * @module room-access
 * Who may read and write a room. A room without an access record is open (anyone reads and
 * writes, as a headset that sends no credentials needs). A record names an owner, editors,
 * viewers and what everyone else may do (`public`). An admin may do anything. A write refused is
 * a 401 to someone unknown (signing in may help) and a 403 to a known user; a read refused is a
 * 404, so a closed room is not seen to exist by those who may not read it.
 */
import { createHostError, type HostError } from '../errors.ts';
import { mayUse, type RoomAccess, type Want } from '../wire/room-access.ts';
import type { Identity } from './users.ts';

export type { PublicAccess, RoomAccess, Want } from '../wire/room-access.ts';

/** What `GET .../access` answers for a room nobody has closed. */
export const OPEN_ROOM = Object.freeze({ owner: null, editors: [], viewers: [], public: 'write' as const });

/** A room a request reads or writes (`hidden`: what a refused read answers instead of the room's 404). */
export interface RoomUse {
  room: string;
  want: Want;
  hidden?: () => HostError;
}

/** The refusal of `who` wanting to `want` room `roomId`, or null when it may. */
export function accessRefusal(roomId: string, access: RoomAccess | null, who: Identity | null, want: Want): HostError | null {
  if (!access || mayUse(access, who, want)) return null;
  if (want === 'read') return createHostError('SPC_ERR_ROOM_NOT_VISIBLE', roomId);
  if (!who) return createHostError('SPC_ERR_ROOM_SIGN_IN', roomId);
  return createHostError('SPC_ERR_ROOM_WRITE_FORBIDDEN', roomId, who.name);
}

/**
 * `access` without user `name` (removed from the host): out of its editors and viewers, and, when
 * it owned the room, the room passes to the admins (owner `admin`, a name no user may take), so a
 * user added later under the same name inherits nothing; null when `access` did not name them.
 */
export function withoutUser(access: RoomAccess, name: string, admins: string): RoomAccess | null {
  if (access.owner !== name && !access.editors.includes(name) && !access.viewers.includes(name)) return null;
  const others = (names: string[]) => names.filter((other) => other !== name);
  return { ...access, owner: access.owner === name ? admins : access.owner, editors: others(access.editors), viewers: others(access.viewers) };
}

const NAMES_MAX = 1000;

function names(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && name.length > 0 && name.length <= 256)) {
    throw createHostError('SPC_ERR_BAD_REQUEST', `${field} must be an array of user names`);
  }
  if (value.length > NAMES_MAX) throw createHostError('SPC_ERR_BAD_REQUEST', `${field} may name at most ${NAMES_MAX} users`);
  return [...new Set(value as string[])];
}

/** A checked access change: each field a 400 naming it; `owner` null when the body names none. */
export function checkAccessBody(body: unknown): Omit<RoomAccess, 'owner'> & { owner: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw createHostError('SPC_ERR_BAD_REQUEST', 'the access must be a JSON object');
  const given = body as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !['owner', 'editors', 'viewers', 'public'].includes(key));
  if (unknown) throw createHostError('SPC_ERR_BAD_REQUEST', `'${unknown}' is not a field of a room's access (owner, editors, viewers, public)`);
  const owner = given.owner ?? null;
  if (owner !== null && (typeof owner !== 'string' || owner === '' || owner.length > 256)) {
    throw createHostError('SPC_ERR_BAD_REQUEST', 'owner must be a user name');
  }
  const open = given.public ?? 'none';
  if (open !== 'write' && open !== 'read' && open !== 'none') throw createHostError('SPC_ERR_BAD_REQUEST', "public must be 'write', 'read' or 'none'");
  return { owner: owner as string | null, editors: names(given.editors, 'editors'), viewers: names(given.viewers, 'viewers'), public: open };
}
