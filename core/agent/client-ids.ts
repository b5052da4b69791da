/**
 * @module client-ids
 * The client ids of a room's agent sockets: each socket gets the next number of its room, and a
 * number is never given again, not even to a client that comes back, so a reply meant for one
 * socket can never be taken for another's. One interface, one home per place a host keeps rooms:
 * a host's memory (memory-client-ids.ts), a lone host's data folder (disk-client-ids.ts), whose
 * count outlives a restart, and Redis for a service (redis-client-ids.ts), whose count every
 * host shares, so the smallest id of a room is its oldest socket on any host.
 */

export interface ClientIds {
  /** The room's next client id (0 first). */
  next(roomId: string): Promise<number>;
}
