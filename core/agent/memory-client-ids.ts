/**
 * @module memory-client-ids
 * Client ids in a host's memory (client-ids.ts), for a host that keeps nothing past its end:
 * its rooms end with it, and so do their counts.
 */
import type { ClientIds } from './client-ids.ts';

export class MemoryClientIds implements ClientIds {
  #next = new Map<string, number>();

  async next(roomId: string): Promise<number> {
    const id = this.#next.get(roomId) ?? 0;
    this.#next.set(roomId, id + 1);
    return id;
  }
}
