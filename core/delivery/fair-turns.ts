/**
 * @module fair-turns
 * Variant work shared fairly between clients: at most `slots` pieces of work run at once (as
 * many as the encode threads), and the ones waiting are served round-robin by client, not in
 * the order they came. Eight clients each asking for many large variants then take turns with
 * a ninth asking for one small download, which waits for one piece of work per client ahead
 * of it rather than for all of theirs.
 */
import { RoomQueue } from '../invoke/room-queue.ts';

interface Turn {
  readonly room: string;
  go(): void;
}

export class FairTurns {
  #slots: number;
  #busy = 0;
  #waiting = new RoomQueue<Turn>();

  constructor(slots: number) {
    this.#slots = Math.max(1, slots);
  }

  /** Work waiting for its turn. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** Work running now. */
  get busy(): number {
    return this.#busy;
  }

  /** Runs `work` for `client` when its turn comes. */
  run<V>(client: string, work: () => Promise<V>): Promise<V> {
    if (this.#busy < this.#slots && this.#waiting.size === 0) return this.#start(work);
    return new Promise<V>((resolve, reject) => {
      this.#waiting.push({ room: client, go: () => void this.#start(work).then(resolve, reject) });
    });
  }

  #start<V>(work: () => Promise<V>): Promise<V> {
    this.#busy++;
    let running: Promise<V>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.finally(() => {
      this.#busy--;
      this.#waiting.take(() => true)?.go();
    });
  }
}
