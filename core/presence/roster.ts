/**
 * @module roster
 * Who is in each room now, one interface for both homes: a host's memory (memory-roster.ts)
 * and a Redis service (redis-roster.ts), side by side and run by one conformance suite. A join
 * and a leave each send the room's `presence` event once; a peer whose host stopped answering
 * leaves within 5 s, so the roster holds no ghosts.
 */
import type { Peer } from './peer.ts';

/** Sends a room event to the room's streams on every host (the room board's announce). */
export type Announce = (roomId: string, event: string, data: unknown) => Promise<void>;

/** The room event a join or a leave sends. */
export const PRESENCE_EVENT = 'presence';

/** How long a peer stays listed after its host last said it is there. */
export const PRESENCE_TTL_MS = 2500;
/** How often a host says its peers are there, and looks for peers whose host went silent. */
export const PRESENCE_BEAT_MS = 750;

export interface Roster {
  /** Lists `peer` in the room and tells the room. */
  join(roomId: string, peer: Peer): Promise<void>;
  /** Takes the peer out of the room and tells the room (once, whoever asks); false when it was not there. */
  leave(roomId: string, peerId: string): Promise<boolean>;
  /** Who is in the room, in the order they joined. */
  list(roomId: string): Promise<Peer[]>;
  close(): void;
}
