/**
 * @module job-tally
 * The jobs this host started in a Redis service, by state, for `counts()` and /metrics: a
 * running job's status is re-read at most every 2 s, and only after a nudge said it may have
 * changed (not on every progress nudge: a figure for metrics need not cost a read per message).
 * A nudge sent before this host subscribed is lost (a short job can end before then), so a new
 * job is read once at the first tick, and a quiet one again every 15 s: without that, a job whose
 * end went unheard would count as running for ever. Finished ones are forgotten after the job
 * TTL, as the service forgets them.
 */
import type { JobStatus } from '../wire/wire-types.ts';

const RECHECK_MS = 2000;
const QUIET_MS = 15_000;

interface Tallied {
  status: JobStatus;
  forgetAt: number;
  /** When its status was last asked for. */
  readAt: number;
  /** Stops following the job's nudges. */
  off: () => void;
}

/** Subscribes `mark` to the nudges of a running job; returns the unsubscribe. */
export type Follow = (mark: () => void) => () => void;

export class JobTally {
  #jobs = new Map<string, Tallied>();
  #read: (id: string) => Promise<JobStatus | null>;
  #ttlMs: number;
  #timer: NodeJS.Timeout;
  /** Running jobs nudged since their last read. */
  #dirty = new Set<string>();

  constructor(read: (id: string) => Promise<JobStatus | null>, ttlMs: number) {
    this.#read = read;
    this.#ttlMs = ttlMs;
    // Also forgets finished jobs past their TTL, so the tally stays bounded unscraped.
    this.#timer = setInterval(() => {
      const now = Date.now();
      for (const [id, job] of this.#jobs) {
        if (job.status === 'running' && (this.#dirty.has(id) || now - job.readAt >= QUIET_MS)) {
          job.readAt = now;
          this.#refresh(id);
        }
      }
      this.#dirty.clear();
      this.counts();
    }, RECHECK_MS).unref();
  }

  /** Counts a job this host started. */
  add(id: string, status: JobStatus, follow?: Follow): void {
    const off = status === 'running' && follow ? follow(() => this.#dirty.add(id)) : () => {};
    // Never read yet: the first tick reads it.
    this.#jobs.set(id, { status, forgetAt: Date.now() + this.#ttlMs, readAt: 0, off });
  }

  #refresh(id: string): void {
    this.#read(id).then(
      (status) => {
        const job = this.#jobs.get(id);
        if (!job || job.status !== 'running' || status === 'running') return;
        job.off();
        if (status === null) this.#jobs.delete(id);
        else {
          job.status = status;
          job.forgetAt = Date.now() + this.#ttlMs;
        }
      },
      () => {},
    );
  }

  counts(): Record<JobStatus, number> {
    const counts = { running: 0, done: 0, error: 0 };
    const now = Date.now();
    for (const [id, job] of this.#jobs) {
      if (job.status !== 'running' && job.forgetAt <= now) this.#jobs.delete(id);
      else counts[job.status]++;
    }
    return counts;
  }

  close(): void {
    clearInterval(this.#timer);
    for (const job of this.#jobs.values()) job.off();
    this.#jobs.clear();
    this.#dirty.clear();
  }
}
