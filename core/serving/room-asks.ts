/**
 * @module room-asks
 * The order in which a room was asked for things while computations run in it. A room shows
 * the latest thing asked of it, not the latest to finish: a slider's older step whose cancel
 * had not reached the host when its computation ended, or a peer's slower request, must not
 * replace what was asked after it (the asker of the older one still gets its answer). Each
 * computation started in a room, and each hit there while one runs, takes the next number; a
 * computation that ends after a later number was taken in its room is not written as the
 * room's. Only rooms with a computation under way are held.
 */

interface Asked {
  latest: number;
  running: number;
}

export class RoomAsks {
  #count = 0;
  #rooms = new Map<string, Asked>();

  /** A computation starts in `roomId`: its number. */
  started(roomId: string): number {
    const n = ++this.#count;
    const room = this.#rooms.get(roomId);
    if (room) {
      room.latest = n;
      room.running++;
    } else {
      this.#rooms.set(roomId, { latest: n, running: 1 });
    }
    return n;
  }

  /** A hit in `roomId`: asked after every computation running there. */
  hit(roomId: string): void {
    const room = this.#rooms.get(roomId);
    if (room) room.latest = ++this.#count;
  }

  /** Whether the computation numbered `n` is still the latest thing asked of `roomId`. */
  isLatest(roomId: string, n: number): boolean {
    return this.#rooms.get(roomId)?.latest === n;
  }

  /** A computation started in `roomId` ended, whichever way. */
  ended(roomId: string): void {
    const room = this.#rooms.get(roomId);
    if (room && --room.running === 0) this.#rooms.delete(roomId);
  }
}
