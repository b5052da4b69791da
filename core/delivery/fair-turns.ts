/**
 * @module fair-turns
 * Variant work shared fairly between clients: at most `slots` pieces of work run at once (as
 * many as the encode threads not kept for small work), and when one ends the next turn goes to
 * the waiting client that has used the threads least. Each client's use is the time its work
 * ran, on one clock shared by all: a client that has been away starts level with the least
 * busy active one (it saves no credit by waiting), so busy clients take turns round-robin.
 *
 * Turns alone cannot stop a client from waiting for the piece already running, and one piece
 * (a 400k-triangle mesh simplified) can take seconds. So `lane` more slots run only small work
 * (a variant of a small result), taken by the same rule among the clients with small work
 * waiting: a bystander asking for a small variant gets a thread at once, however many busy
 * clients hold the others with large ones.
 */

/** Clients remembered beyond those level with the least busy one (bounded memory). */
const REMEMBERED_CLIENTS = 10_000;

export class FairTurns {
  #slots: number;
  #lane: number;
  #now: () => number;
  #busy = 0;
  #busyLane = 0;
  #size = 0;
  /** Work waiting, by client, clients in the order they first waited. */
  #waiting = new Map<string, { go: (inLane: boolean) => void; small: boolean }[]>();
  /** Milliseconds of work each client has had, on the shared clock. */
  #used = new Map<string, number>();
  /** The use of the client given the last turn: where a returning or new client starts. */
  #floor = 0;

  /** `lane`: slots beside `slots` that run only small work. */
  constructor(slots: number, now: () => number = () => performance.now(), lane = 0) {
    this.#slots = Math.max(1, slots);
    this.#lane = Math.max(0, lane);
    this.#now = now;
  }

  /** Work waiting for its turn. */
  get waiting(): number {
    return this.#size;
  }

  /** Work running now. */
  get busy(): number {
    return this.#busy + this.#busyLane;
  }

  /** Clients whose use is remembered (bounded). */
  get remembered(): number {
    return this.#used.size;
  }

  /** Runs `work` for `client` when its turn comes; `small` work may also take a lane slot. */
  run<V>(client: string, work: () => Promise<V>, small = false): Promise<V> {
    if (this.#size === 0 && this.#busy < this.#slots) return this.#start(client, work, false);
    if (small && this.#busyLane < this.#lane && !this.#smallWaiting()) return this.#start(client, work, true);
    return new Promise<V>((resolve, reject) => {
      const go = (inLane: boolean) => void this.#start(client, work, inLane).then(resolve, reject);
      const list = this.#waiting.get(client);
      if (list) list.push({ go, small });
      else this.#waiting.set(client, [{ go, small }]);
      this.#size++;
    });
  }

  #smallWaiting(): boolean {
    for (const list of this.#waiting.values()) if (list.some((w) => w.small)) return true;
    return false;
  }

  #start<V>(client: string, work: () => Promise<V>, inLane: boolean): Promise<V> {
    if (inLane) this.#busyLane++;
    else this.#busy++;
    const began = this.#now();
    let running: Promise<V>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.finally(() => {
      if (inLane) this.#busyLane--;
      else this.#busy--;
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

  /** Fills free slots: a general one with anyone's work, a lane one with small work. */
  #next(): void {
    while (this.#busy < this.#slots && this.#give(false));
    while (this.#busyLane < this.#lane && this.#give(true));
  }

  /** Starts the waiting work (small only, for the lane) of the client that used the threads least. */
  #give(inLane: boolean): boolean {
    let chosen: string | undefined;
    let least = Infinity;
    let leastOwn = Infinity;
    for (const [client, list] of this.#waiting) {
      if (inLane && !list.some((w) => w.small)) continue;
      const used = this.#usedBy(client);
      // Level with the floor: the one that had less of its own goes first (a newcomer).
      const own = this.#used.get(client) ?? 0;
      if (used < least || (used === least && own < leastOwn)) {
        least = used;
        leastOwn = own;
        chosen = client;
      }
    }
    if (chosen === undefined) return false;
    this.#floor = least;
    const list = this.#waiting.get(chosen)!;
    const at = inLane ? list.findIndex((w) => w.small) : 0;
    const [next] = list.splice(at, 1);
    if (list.length === 0) this.#waiting.delete(chosen);
    this.#size--;
    next!.go(inLane);
    return true;
  }
}
