/**
 * @module room-scheduler
 * Hands out compute threads fairly across rooms. At most `threads` runs at once, at most
 * `perRoom` of them for one room; waiting runs are taken round-robin across rooms, so one
 * room's backlog of forty jobs cannot keep another room's single request waiting behind it.
 * Runs take a slot before they reach the thread pool, so the pool's own FIFO queue stays
 * empty and this is the only queue.
 */
import { createHostError } from '../errors.ts';

interface Waiter {
  room: string;
  grant: () => void;
  reject: (error: Error) => void;
}

export class RoomScheduler {
  readonly threads: number;
  readonly perRoom: number;
  #busy = 0;
  #busyByRoom = new Map<string, number>();
  /** Waiting runs by room; rooms in the order they are served (round-robin). */
  #waiting = new Map<string, Waiter[]>();

  constructor(options: { threads: number; perRoom: number }) {
    this.threads = options.threads;
    this.perRoom = Math.min(options.perRoom, options.threads);
  }

  /** Runs holding a thread now. */
  get busy(): number {
    return this.#busy;
  }

  /** Runs waiting for a thread. */
  get queued(): number {
    let n = 0;
    for (const list of this.#waiting.values()) n += list.length;
    return n;
  }

  #canRun(room: string): boolean {
    return this.#busy < this.threads && (this.#busyByRoom.get(room) ?? 0) < this.perRoom;
  }

  #take(room: string): () => void {
    this.#busy++;
    this.#busyByRoom.set(room, (this.#busyByRoom.get(room) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy--;
      const left = (this.#busyByRoom.get(room) ?? 1) - 1;
      if (left === 0) this.#busyByRoom.delete(room);
      else this.#busyByRoom.set(room, left);
      this.#dispatch();
    };
  }

  /**
   * Resolves with a release function once `room` may use a thread. Aborting `signal` while
   * waiting rejects with SPC_ERR_JOB_CANCELLED and gives up the place in line.
   */
  acquire(room: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(createHostError('SPC_ERR_JOB_CANCELLED'));
    if (!this.#waiting.has(room) && this.#canRun(room)) return Promise.resolve(this.#take(room));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const list = this.#waiting.get(room);
        const at = list?.indexOf(waiter) ?? -1;
        if (list && at >= 0) {
          list.splice(at, 1);
          if (list.length === 0) this.#waiting.delete(room);
        }
        reject(createHostError('SPC_ERR_JOB_CANCELLED'));
      };
      const waiter: Waiter = {
        room,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#take(room));
        },
        reject,
      };
      const list = this.#waiting.get(room);
      if (list) list.push(waiter);
      else this.#waiting.set(room, [waiter]);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#dispatch();
    });
  }

  /** Grants free threads to waiting rooms, one run per room per turn. */
  #dispatch(): void {
    let granted = true;
    while (granted && this.#busy < this.threads) {
      granted = false;
      for (const [room, list] of this.#waiting) {
        if (!this.#canRun(room)) continue;
        const waiter = list.shift()!;
        // The room goes to the back of the line: the next turn serves the others first.
        this.#waiting.delete(room);
        if (list.length > 0) this.#waiting.set(room, list);
        waiter.grant();
        granted = true;
        break;
      }
    }
  }
}
