/**
 * @module client-ids
 * The client ids of a room's agent sockets: each socket gets the next number of its room, and a
 * number is never given again, not even to a client that comes back, so a reply meant for one
 * socket can never be taken for another's. One interface, one home per place a host keeps rooms:
 * a host's memory here, Redis for a service (redis-client-ids.ts), whose counter every host shares.
 */

export interface ClientIds {
  /** The room's next client id (0 first). */
  next(roomId: string): Promise<number>;
}

export class MemoryClientIds implements ClientIds {
  #next = new Map<string, number>();

  async next(roomId: string): Promise<number> {
    const id = this.#next.get(roomId) ?? 0;
    this.#next.set(roomId, id + 1);
    return id;
  }
}
