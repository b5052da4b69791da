/**
 * @module run-durations
 * What the host has learned about how long each function runs, for the room scheduler's short
 * lane. A function is *short* while at least half of its last few finished runs took under
 * {@link SHORT_RUN_MS} (one slow run on a busy machine does not change its class) and none of
 * its runs in flight has passed that mark. A function never
 * run before is short for one run at a time: that first run teaches the rest, so a thousand
 * starts of an unknown long function put at most one of them in the lane. A run that was
 * cancelled early teaches nothing (it may have been long); one that passed the mark, cancelled
 * or not, counts as long.
 */

/** Runs under this many milliseconds are short. */
export const SHORT_RUN_MS = 250;

/** True when at least half of `runs` (milliseconds) were short: one slow run on a busy machine does not make a function long. */
export function mostlyShort(runs: number[]): boolean {
  return runs.filter((ms) => ms < SHORT_RUN_MS).length * 2 >= runs.length;
}

/** Finished runs remembered per function. */
const REMEMBERED_RUNS = 4;

/** One run being timed. */
export interface TimedRun {
  /** The function itself starts now (what came before, a thread starting, does not count). */
  restart(): void;
  /** The run is over; `completed` false when it was cancelled; `ms`, its length when measured where it ran. */
  end(completed: boolean, ms?: number): void;
}

export class RunDurations {
  /** Durations of the last finished runs, per function, newest last. */
  #recent = new Map<string, number[]>();
  /** Start times of the runs in flight, per function. */
  #running = new Map<string, Set<{ start: number }>>();
  #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Whether a run of `fn` that starts now is expected to be short. */
  isShort(fn: string): boolean {
    const running = this.#running.get(fn);
    const now = this.#now();
    if (running) for (const run of running) if (now - run.start >= SHORT_RUN_MS) return false;
    const recent = this.#recent.get(fn);
    if (!recent) return !running || running.size === 0;
    return mostlyShort(recent);
  }

  /** Notes that a run of `fn` started (or is about to): see {@link TimedRun}. */
  start(fn: string): TimedRun {
    const run = { start: this.#now() };
    let running = this.#running.get(fn);
    if (!running) this.#running.set(fn, (running = new Set()));
    running.add(run);
    return {
      restart: () => void (run.start = this.#now()),
      end: (completed, measured) => {
        if (!running.delete(run)) return;
        if (running.size === 0 && this.#running.get(fn) === running) this.#running.delete(fn);
        const ms = measured ?? this.#now() - run.start;
        if (completed || ms >= SHORT_RUN_MS) this.#record(fn, ms);
      },
    };
  }

  #record(fn: string, ms: number): void {
    const recent = this.#recent.get(fn) ?? [];
    recent.push(ms);
    if (recent.length > REMEMBERED_RUNS) recent.shift();
    this.#recent.set(fn, recent);
  }
}
