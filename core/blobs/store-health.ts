/**
 * @module store-health
 * Whether a blob store answers, for `/readyz`: what its own requests met (a failure marks it
 * down at once, any answer marks it up again) and, once a host asks, a probe every few seconds
 * (so a store that went away while nobody read from it is noticed, and one that came back is
 * too). A host whose store is down is not ready: a load balancer sends its clients elsewhere.
 */

/** How often the probe asks the store, ms. */
const PROBE_EVERY_MS = 5000;

export class StoreHealth {
  #what: string;
  #probe: () => Promise<void>;
  #down: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #probing = false;

  /** `what` names the store in the reason; `probe` asks it something small, rejecting when it does not answer. */
  constructor(what: string, probe: () => Promise<void>) {
    this.#what = what;
    this.#probe = probe;
  }

  /** A request to the store got an answer (a miss counts: the store answered). */
  answered(): void {
    this.#down = null;
  }

  /** A request to the store failed for `why` (unreachable, refused, stalled). */
  failed(why: string): void {
    this.#down = why;
  }

  /** Null while the store answers, else why not; the first call starts the probe. */
  notReady(): string | null {
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.#check(), PROBE_EVERY_MS);
      this.#timer.unref();
      void this.#check();
    }
    return this.#down === null ? null : `${this.#what} does not answer: ${this.#down}`;
  }

  async #check(): Promise<void> {
    if (this.#probing) return;
    this.#probing = true;
    try {
      await this.#probe();
      this.answered();
    } catch (error) {
      this.failed((error as Error).message);
    } finally {
      this.#probing = false;
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
