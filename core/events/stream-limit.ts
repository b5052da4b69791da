/**
 * @module stream-limit
 * StreamLimit: a per-host bound on open Server-Sent Events streams. Each stream holds a few
 * small objects and a socket for as long as its client stays, so without a bound clients
 * could open streams until the host runs out of memory or descriptors; past the bound a new
 * stream is refused with 503 and `Retry-After` before it switches to SSE.
 */
import { createHostError } from '../errors.ts';

/** Open event streams one host accepts at most (every stream route together). */
export const DEFAULT_MAX_EVENT_STREAMS = 10_000;

/** Seconds a refused client is asked to wait. */
const RETRY_AFTER_SECONDS = 5;

export class StreamLimit {
  readonly max: number;
  #open = 0;

  constructor(max: number = DEFAULT_MAX_EVENT_STREAMS) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('the event stream limit must be a positive integer');
    this.max = max;
  }

  /** Streams open now. */
  get open(): number {
    return this.#open;
  }

  /**
   * Takes one slot and returns its release (calling it twice releases once).
   * @throws SPC_ERR_TOO_MANY_STREAMS (503, Retry-After) past the bound
   */
  acquire(): () => void {
    if (this.#open >= this.max) {
      const error = createHostError('SPC_ERR_TOO_MANY_STREAMS', String(this.max));
      error.headers['retry-after'] = String(RETRY_AFTER_SECONDS);
      throw error;
    }
    this.#open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open--;
    };
  }
}
