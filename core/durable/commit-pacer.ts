/**
 * @module commit-pacer
 * Whether a write commits on the spot, on the event loop's own thread, or goes to lmdb-js's
 * write thread to be batched with others. The batched path hands the write to that thread,
 * back to this one to run the write's work, and back again to commit and flush: on a virtual
 * machine each hand-off is a thread wake-up with a tail of its own, and together they add about
 * 1.4 ms to a lone write's p99 over a commit made in place (`npm run bench durable`). A write
 * alone gains nothing from batching, so it commits in place; the loop then waits for one flush.
 *
 * That wait is bounded three ways: never while a batched write is still under way (it would
 * also overtake it, and wait for its lock); never past a share of the loop's time (flushes in
 * place may take a third of it, with a few milliseconds of credit: one client's writes one
 * after another, each holding the loop about 0.4 ms, stay in place, while a burst from many
 * clients soon batches as before); and never for a minute after one flush took longer
 * than a slow one may (a disk that has gone slow or hung stalls writes, not the whole host).
 *
 * And never near the edge of the disk. When LMDB cannot write a page (a full disk, a file-size
 * limit), lmdb-js formats its error into a buffer too small for it; on this thread that
 * overran memory and aborted the host (`malloc(): invalid next size`, `munmap_chunk(): invalid
 * pointer`) in a quarter of the runs of the crash test that fills the disk, while on lmdb-js's
 * own write thread the same failure came back as a 507 in every run. So a write commits in
 * place only while the store can surely grow by far more than any one write (`roomy`: 256 MiB
 * under both the process's file-size limit and the disk's free space); nearer the edge every
 * write is batched, and the disk's refusal is met on that thread.
 */

/** The share of the loop's time that commits in place may take, on average. */
const LOOP_SHARE = 1 / 3;
/** The flush time in place that may run ahead of that share. */
const CREDIT_MS = 3;
/** A flush in place longer than this says the disk is slow: writes batch for a while. */
const SLOW_MS = 50;
const SLOW_PAUSE_MS = 60_000;

export interface PacerOptions {
  /** The clock, in milliseconds. */
  now?: () => number;
  /** Whether the store has room enough to commit in place (see above); asked last, being a few system calls. */
  roomy?: () => boolean;
}

export class CommitPacer {
  #batched = 0;
  /** Flush time in place not yet paid back by the loop's time since. */
  #debt = 0;
  #paidAt = 0;
  #slowUntil = 0;
  #now: () => number;
  #roomy: () => boolean;

  constructor({ now = () => performance.now(), roomy = () => true }: PacerOptions = {}) {
    this.#now = now;
    this.#roomy = roomy;
  }

  /** True when the next write may commit in place. */
  inPlace(): boolean {
    if (this.#batched > 0) return false;
    const now = this.#now();
    if (now < this.#slowUntil) return false;
    this.#debt = Math.max(0, this.#debt - (now - this.#paidAt) * LOOP_SHARE);
    this.#paidAt = now;
    return this.#debt <= CREDIT_MS && this.#roomy();
  }

  /** Runs `commit` in place and counts the time it held the loop. */
  timed<T>(commit: () => T): T {
    const started = this.#now();
    try {
      return commit();
    } finally {
      const took = this.#now() - started;
      this.#debt += took;
      if (took > SLOW_MS) this.#slowUntil = started + took + SLOW_PAUSE_MS;
    }
  }

  /** Counts a batched write from its start until `done` settles. */
  batched<T>(done: Promise<T>): Promise<T> {
    this.#batched++;
    const settle = () => void this.#batched--;
    done.then(settle, settle);
    return done;
  }
}
