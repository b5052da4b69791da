/**
 * @module open-retries
 * Remote specimens a host could not open (their remote down when it started, or when another
 * host of the service published them) are tried again by themselves: the refresh runs again
 * after 5 s, then after twice as long each time up to 5 minutes, until every one is open; then
 * the next failure starts over from the first wait. Nobody has to ask for the catalog again.
 */

export const FIRST_RETRY_MS = 5_000;
export const MOST_RETRY_MS = 300_000;

export class OpenRetries {
  #wait = FIRST_RETRY_MS;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  /** `refresh` brings the host in line with the store, answering false while something is left unopened. */
  constructor(
    readonly refresh: () => Promise<boolean>,
    readonly warn: (message: string, error: unknown) => void = () => {},
  ) {}

  /** Refreshes now; while something is left unopened, again after the next wait. */
  async run(): Promise<void> {
    const complete = await this.refresh().catch((error: unknown) => {
      this.warn('the remote specimens could not be brought in line; trying again later', error);
      return false;
    });
    if (complete) {
      this.#wait = FIRST_RETRY_MS;
      return;
    }
    if (this.#closed || this.#timer) return;
    const wait = this.#wait;
    this.#wait = Math.min(MOST_RETRY_MS, wait * 2);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.run();
    }, wait);
    this.#timer.unref();
  }

  /** No more tries (the host is closing). */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
