/**
 * @module pose-rate
 * How fast a peer may send poses: 20 a second, with a burst of 10 for a jittery clock. A pose
 * beyond the rate is dropped; a sender that keeps going (20 dropped more than it was allowed)
 * is told to stop by closing its socket.
 */

export const MAX_POSES_PER_SECOND = 20;
const BURST = 10;
const TOLERATED_EXCESS = 20;

export class PoseRate {
  #tokens = BURST;
  #at: number;
  #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#at = now();
  }

  /** 'pass', 'drop' (over the rate) or 'close' (far over it). */
  take(): 'pass' | 'drop' | 'close' {
    const now = this.#now();
    this.#tokens = Math.min(BURST, this.#tokens + ((now - this.#at) / 1000) * MAX_POSES_PER_SECOND);
    this.#at = now;
    this.#tokens -= 1;
    if (this.#tokens >= 0) return 'pass';
    return this.#tokens < -TOLERATED_EXCESS ? 'close' : 'drop';
  }
}
