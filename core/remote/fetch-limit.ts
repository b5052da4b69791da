/**
 * @module fetch-limit
 * At most N reads at once from one remote; the others wait their turn in order. A remote is
 * someone else's server: the host never opens more than this many requests to it at a time.
 */

export class FetchLimit {
  readonly #max: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    this.#max = max;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // A waiting read takes over this one's place, so the count stays the same.
      if (next) next();
      else this.#running--;
    }
  }
}
