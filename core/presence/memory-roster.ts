/**
 * @module memory-roster
 * A lone host's roster: its own followers, each listed while its connection is open (a
 * connection that goes silent is closed by its heartbeat, which leaves).
 */
import type { Peer } from './peer.ts';
import { PRESENCE_EVENT, type Announce, type Roster } from './roster.ts';

export class MemoryRoster implements Roster {
  #rooms = new Map<string, Map<string, Peer>>();
  #announce: Announce;

  constructor(announce: Announce) {
    this.#announce = announce;
  }

  async join(roomId: string, peer: Peer): Promise<void> {
    let peers = this.#rooms.get(roomId);
    if (!peers) this.#rooms.set(roomId, (peers = new Map()));
    peers.set(peer.id, peer);
    await this.#announce(roomId, PRESENCE_EVENT, { op: 'join', peer });
  }

  async leave(roomId: string, peerId: string): Promise<boolean> {
    const peers = this.#rooms.get(roomId);
    const peer = peers?.get(peerId);
    if (!peers || !peer) return false;
    peers.delete(peerId);
    if (peers.size === 0) this.#rooms.delete(roomId);
    await this.#announce(roomId, PRESENCE_EVENT, { op: 'leave', peer });
    return true;
  }

  async list(roomId: string): Promise<Peer[]> {
    return [...(this.#rooms.get(roomId)?.values() ?? [])];
  }

  close(): void {
    this.#rooms.clear();
  }
}
