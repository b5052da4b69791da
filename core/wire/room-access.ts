/**
 * @module room-access
 * Who may read and write a room, as `GET /api/rooms/{room}/access` answers it, and the one rule
 * deciding what someone may do there: the host refuses by it, and a page reads it to leave out
 * the controls whose writes would be refused.
 */

export type PublicAccess = 'write' | 'read' | 'none';

export interface RoomAccess {
  owner: string;
  editors: string[];
  viewers: string[];
  public: PublicAccess;
}

/** A room's access as answered: an open room has no owner. */
export type AccessAnswer = Omit<RoomAccess, 'owner'> & { owner: string | null };

export type Want = 'read' | 'write';

/** Who asks, as `GET /api/me` names them: a user, and whether an admin. */
export interface Asker {
  name: string;
  admin: boolean;
}

/**
 * Whether `who` (null: nobody known) may `want` a room of `access`: an admin anything; anyone
 * what `public` allows; its owner and editors read and write; its viewers read.
 */
export function mayUse(access: AccessAnswer, who: Asker | null, want: Want): boolean {
  if (who?.admin) return true;
  if (access.public === 'write' || (access.public === 'read' && want === 'read')) return true;
  if (!who) return false;
  if (who.name === access.owner || access.editors.includes(who.name)) return true;
  return want === 'read' && access.viewers.includes(who.name);
}
