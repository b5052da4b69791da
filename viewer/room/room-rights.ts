/**
 * @module room-rights
 * Whether the page may change its room: whom the host takes it for and the room's access, read
 * again whenever the page's room or its following changes, and decided by the host's own rule
 * (wire/room-access.ts). A page that may only look is not offered the controls whose writes the
 * host would refuse; `why` says so in words the page shows on them.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import { mayUse } from '../../core/wire/room-access.ts';

export interface RoomRights {
  write: boolean;
  /** Why the page may not write ('' when it may). */
  why: string;
}

/** What a page may do before it knows: write (the host still checks every write). */
export const MAY_WRITE: RoomRights = Object.freeze({ write: true, why: '' });

/** The page's rights in `room`; {@link MAY_WRITE} when they cannot be read (the host refuses what it must). */
export async function readRoomRights(client: VitrineClient, room: string): Promise<RoomRights> {
  try {
    const people = client.people();
    const [me, access] = await Promise.all([people.me(), people.access(room)]);
    const known = me.admin || me.name !== 'anonymous' ? me : null;
    if (mayUse(access, known, 'write')) return MAY_WRITE;
    if (!known) return { write: false, why: 'Only people this room names may change it: sign in to edit.' };
    const owner = access.owner ? ` (its owner, ${access.owner}, can make you an editor)` : '';
    return { write: false, why: `${known.name} may look at this room but not change it${owner}.` };
  } catch {
    return MAY_WRITE;
  }
}
