/**
 * @module room-queue
 * Waiting runs grouped by room and served round-robin: each turn takes the oldest waiter of
 * the first room that may run, and that room goes to the back of the line, so a room with forty
 * waiting runs gets one turn like a room with one.
 */

export interface RoomWaiter {
  readonly room: string;
}

export class RoomQueue<W extends RoomWaiter> {
  /** Waiters by room; rooms in the order they are served. */
  #rooms = new Map<string, W[]>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  has(room: string): boolean {
    return this.#rooms.has(room);
  }

  push(waiter: W): void {
    const list = this.#rooms.get(waiter.room);
    if (list) list.push(waiter);
    else this.#rooms.set(waiter.room, [waiter]);
    this.#size++;
  }

  /** Removes `waiter` (a cancelled wait); false when it was not waiting. */
  remove(waiter: W): boolean {
    const list = this.#rooms.get(waiter.room);
    const at = list?.indexOf(waiter) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.#rooms.delete(waiter.room);
    this.#size--;
    return true;
  }

  /** Takes the next waiter of the first room `mayRun` allows, in turn order; undefined if none. */
  take(mayRun: (room: string) => boolean): W | undefined {
    for (const [room, list] of this.#rooms) {
      if (!mayRun(room)) continue;
      const waiter = list.shift()!;
      // The room goes to the back of the line: the next turn serves the others first.
      this.#rooms.delete(room);
      if (list.length > 0) this.#rooms.set(room, list);
      this.#size--;
      return waiter;
    }
    return undefined;
  }

  /** Removes and returns every waiter `match` selects, in turn order. */
  extract(match: (waiter: W) => boolean): W[] {
    const out: W[] = [];
    for (const [room, list] of this.#rooms) {
      const kept = list.filter((waiter) => !match(waiter) || (out.push(waiter), false));
      if (kept.length === list.length) continue;
      this.#size -= list.length - kept.length;
      if (kept.length === 0) this.#rooms.delete(room);
      else this.#rooms.set(room, kept);
    }
    return out;
  }
}
