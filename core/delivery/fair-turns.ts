/**
 * @module fair-turns
 * Variant work shared fairly between clients: at most `slots` pieces of work run at once (as
 * many as the encode threads), and when one ends the next turn goes to the waiting client that
 * has used the threads least. Each client's use is the time its work ran, on one clock shared
 * by all: a client that has been away starts level with the least busy active one (it saves
 * no credit by waiting), so busy clients take turns round-robin, and one asking for a small
 * variant (a shape, then its encoding) waits for the work already running, not for every busy
 * client's next piece.
 */

/** Clients remembered beyond those level with the least busy one (bounded memory). */
const REMEMBERED_CLIENTS = 10_000;

export class FairTurns {
  #slots: number;
  #now: () => number;
  #busy = 0;
  #size = 0;
  /** Work waiting, by client, clients in the order they first waited. */
  #waiting = new Map<string, (() => void)[]>();
  /** Milliseconds of work each client has had, on the shared clock. */
  #used = new Map<string, number>();
  /** The use of the client given the last turn: where a returning or new client starts. */
  #floor = 0;

  constructor(slots: number, now: () => number = () => performance.now()) {
    this.#slots = Math.max(1, slots);
    this.#now = now;
  }

  /** Work waiting for its turn. */
  get waiting(): number {
    return this.#size;
  }

  /** Work running now. */
  get busy(): number {
    return this.#busy;
  }

  /** Clients whose use is remembered (bounded). */
  get remembered(): number {
    return this.#used.size;
  }

  /** Runs `work` for `client` when its turn comes. */
  run<V>(client: string, work: () => Promise<V>): Promise<V> {
    if (this.#busy < this.#slots && this.#size === 0) return this.#start(client, work);
    return new Promise<V>((resolve, reject) => {
      const go = () => void this.#start(client, work).then(resolve, reject);
      const list = this.#waiting.get(client);
      if (list) list.push(go);
      else this.#waiting.set(client, [go]);
      this.#size++;
    });
  }

  #start<V>(client: string, work: () => Promise<V>): Promise<V> {
    this.#busy++;
    const began = this.#now();
    let running: Promise<V>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.finally(() => {
      this.#busy--;
      this.#charge(client, this.#now() - began);
      this.#next();
    });
  }

  #usedBy(client: string): number {
    return Math.max(this.#used.get(client) ?? 0, this.#floor);
  }

  #charge(client: string, ms: number): void {
    this.#used.set(client, this.#usedBy(client) + Math.max(0, ms));
    if (this.#used.size <= REMEMBERED_CLIENTS) return;
    // Clients level with the floor count as new ones: forgetting them changes nothing.
    for (const [other, used] of this.#used) if (used <= this.#floor) this.#used.delete(other);
  }

  /** Starts the waiting work of the client that has used the threads least. */
  #next(): void {
    let chosen: string | undefined;
    let least = Infinity;
    let leastOwn = Infinity;
    for (const client of this.#waiting.keys()) {
      const used = this.#usedBy(client);
      // Level with the floor: the one that had less of its own goes first (a newcomer).
      const own = this.#used.get(client) ?? 0;
      if (used < least || (used === least && own < leastOwn)) {
        least = used;
        leastOwn = own;
        chosen = client;
      }
    }
    if (chosen === undefined) return;
    this.#floor = least;
    const list = this.#waiting.get(chosen)!;
    const go = list.shift()!;
    if (list.length === 0) this.#waiting.delete(chosen);
    this.#size--;
    go();
  }
}
