/**
 * @module presence-service
 * Who is in a room and where they point, as the routes use it: a follower of the room's event
 * stream is listed while its stream is open; a live socket carries its peer's poses (joining
 * the roster itself, or standing for a follower already listed, `?peer=`) and, should its
 * heartbeat be lost, takes that peer out, so a peer that vanished without a word leaves within
 * 5 s. Every leave, however noticed and on whichever host, tells this host's live peers to drop
 * the one who left.
 */
import { ROOM_CHANNEL_PREFIX } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { WebSocket } from 'ws';
import type { LiveHub } from './live-hub.ts';
import type { Peer, PresenceChange } from './peer.ts';
import { PRESENCE_EVENT, type Roster } from './roster.ts';

/** Who a live socket is: a new peer, or a follower already listed (`standsFor`), perhaps as a new kind (`relisted`). */
export interface LiveIdentity {
  peer: Peer;
  standsFor: boolean;
  relisted?: boolean;
}

export class PresenceService {
  readonly roster: Roster;
  readonly live: LiveHub;
  #untap: () => void;

  constructor(roster: Roster, live: LiveHub, hub: EventHub) {
    this.roster = roster;
    this.live = live;
    this.#untap = hub.tap((channel, event) => {
      if (event.event !== PRESENCE_EVENT || !channel.startsWith(ROOM_CHANNEL_PREFIX)) return;
      const change = event.data as PresenceChange;
      if (change?.op === 'leave') live.gone(channel.slice(ROOM_CHANNEL_PREFIX.length), change.peer.id);
    });
  }

  list(roomId: string): Promise<Peer[]> {
    return this.roster.list(roomId);
  }

  /** Lists a follower while its stream is open; answers what takes it out. */
  async follow(roomId: string, peer: Peer): Promise<() => void> {
    await this.roster.join(roomId, peer);
    return () => void this.roster.leave(roomId, peer.id).catch(() => {});
  }

  /** The listed peer `peerId` of the room, for a live socket standing for it; null when not listed. */
  async listed(roomId: string, peerId: string): Promise<Peer | null> {
    return (await this.roster.list(roomId)).find((peer) => peer.id === peerId) ?? null;
  }

  /**
   * Serves a live socket as `identity.peer`. `standsFor`: the peer is a follower already listed
   * (it leaves with the socket only when the socket went silent); otherwise the socket joins.
   * `relisted`: the follower says it is now another kind: listed again under the same id (one
   * entry, replaced in place on every home, so no ghost of the old kind stays), and the room
   * hears it join as that kind.
   */
  async connect(roomId: string, identity: LiveIdentity, socket: WebSocket): Promise<void> {
    const { peer, standsFor } = identity;
    // Served at once: a frame sent right after the upgrade arrives before the roster answers.
    const joined = standsFor && !identity.relisted ? Promise.resolve() : this.roster.join(roomId, peer);
    this.live.attach(roomId, peer, socket, (silent) => {
      // After the join, whenever the socket goes: a leave before it would leave a ghost behind.
      if (!standsFor || silent) void joined.then(() => this.roster.leave(roomId, peer.id)).catch(() => {});
    });
    await joined;
  }

  async close(): Promise<void> {
    this.#untap();
    await this.live.close();
    this.roster.close();
  }
}
