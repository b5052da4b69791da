/**
 * @module fair-turns
 * Variant work shared fairly between clients: at most `slots` pieces of work run at once (as
 * many as the encode threads), and when one ends the next turn goes to the waiting client
 * served longest ago (one never served, or not for a long time, first), so clients with
 * work waiting take turns round-robin, and a client that just arrived waits for the work
 * already running, not for everyone's queue. Eight clients each asking for one large variant
 * after another then slow a ninth asking for one small download by about one piece of work.
 */

/** Clients remembered (when they were last served) beyond those with work waiting. */
const REMEMBERED_CLIENTS = 10_000;

export class FairTurns {
  #slots: number;
  #busy = 0;
  #size = 0;
  /** Work waiting, by client. */
  #waiting = new Map<string, (() => void)[]>();
  /** When each client was last served (a turn counter), oldest first. */
  #served = new Map<string, number>();
  #turn = 0;

  constructor(slots: number) {
    this.#slots = Math.max(1, slots);
  }

  /** Work waiting for its turn. */
  get waiting(): number {
    return this.#size;
  }

  /** Work running now. */
  get busy(): number {
    return this.#busy;
  }

  /** Clients whose last turn is remembered (bounded). */
  get remembered(): number {
    return this.#served.size;
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
    this.#markServed(client);
    let running: Promise<V>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.finally(() => {
      this.#busy--;
      this.#next();
    });
  }

  #markServed(client: string): void {
    this.#served.delete(client);
    this.#served.set(client, this.#turn++);
    // The oldest entries go first; a forgotten client counts as never served (first in line).
    for (const old of this.#served.keys()) {
      if (this.#served.size <= REMEMBERED_CLIENTS) break;
      this.#served.delete(old);
    }
  }

  /** Starts the waiting work of the client served longest ago. */
  #next(): void {
    let chosen: string | undefined;
    let oldest = Infinity;
    for (const client of this.#waiting.keys()) {
      const last = this.#served.get(client) ?? -1;
      if (last < oldest) {
        oldest = last;
        chosen = client;
      }
    }
    if (chosen === undefined) return;
    const list = this.#waiting.get(chosen)!;
    const go = list.shift()!;
    if (list.length === 0) this.#waiting.delete(chosen);
    this.#size--;
    go();
  }
}
