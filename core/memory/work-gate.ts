/**
 * @module work-gate
 * A bound on one kind of work the host queues (room pictures, segment surfaces, cancellations):
 * past `max` pieces under way or waiting, a new one is refused at once with 503 and
 * `Retry-After`, so every request accepted is answered rather than left waiting behind an
 * unbounded queue.
 */
import { createHostError, type HostError } from '../errors.ts';

const RETRY_AFTER_SECONDS = 2;

export class WorkGate {
  readonly what: string;
  readonly max: number;
  #active = 0;

  /** `what`: the work, plural, as a refusal names it ("room pictures"). */
  constructor(what: string, max: number) {
    this.what = what;
    this.max = max;
  }

  /** Pieces under way or waiting. */
  get active(): number {
    return this.#active;
  }

  #busy(): HostError {
    const error = createHostError('SPC_ERR_OVERLOADED', `${this.max} ${this.what} are under way or waiting, its bound`);
    error.headers['retry-after'] = String(RETRY_AFTER_SECONDS);
    return error;
  }

  /** Runs `work`, or refuses it (503, Retry-After) when the bound is reached. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active >= this.max) throw this.#busy();
    this.#active++;
    try {
      return await work();
    } finally {
      this.#active--;
    }
  }

  /** Counts one piece for `ms` milliseconds (work whose cost follows it, as a cancel's), or refuses it. */
  hold(ms: number): void {
    if (this.#active >= this.max) throw this.#busy();
    this.#active++;
    setTimeout(() => this.#active--, ms).unref();
  }
}
