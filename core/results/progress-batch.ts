/**
 * @module progress-batch
 * A function's progress reports on their way out of the thread or process that runs it, sent
 * at most once per {@link PROGRESS_BATCH_MS} as one batch: a report after a quiet spell goes at
 * once; reports that follow it closely wait (at most that long) and go together. A function
 * reporting in a tight loop (hundreds of thousands of times) then costs the host a few dozen
 * messages a second instead of one per report, so its event loop (and `/healthz`) stays free.
 * A batch keeps the newest {@link MAX_BATCH_REPORTS} reports: the host keeps only the newest
 * of a job's messages anyway.
 */

/** Shortest time between two batches, milliseconds. */
export const PROGRESS_BATCH_MS = 20;

/** Reports one batch carries at most (the newest). */
export const MAX_BATCH_REPORTS = 1000;

export class ProgressBatch<T> {
  #send: (reports: T[]) => void;
  #pending: T[] = [];
  #lastSent = -Infinity;
  #timer: NodeJS.Timeout | null = null;

  constructor(send: (reports: T[]) => void) {
    this.#send = send;
  }

  /** One report: sent now after a quiet spell, else with the next batch. */
  add(report: T): void {
    this.#pending.push(report);
    // Past twice the bound, drop the oldest in one go (amortised; the batch is cut at flush).
    if (this.#pending.length > 2 * MAX_BATCH_REPORTS) this.#pending = this.#pending.slice(-MAX_BATCH_REPORTS);
    const since = performance.now() - this.#lastSent;
    if (since >= PROGRESS_BATCH_MS) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), PROGRESS_BATCH_MS - since);
  }

  /** Sends what waits (the run is over, or its time came). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pending.length === 0) return;
    const reports = this.#pending.length > MAX_BATCH_REPORTS ? this.#pending.slice(-MAX_BATCH_REPORTS) : this.#pending;
    this.#pending = [];
    this.#lastSent = performance.now();
    this.#send(reports);
  }
}
