/**
 * @module job-tally
 * The jobs this host started in a Redis service, by state, for `counts()` and /metrics: each
 * running job's status is re-read every 2 s (not on every progress nudge: a figure for metrics
 * need not cost a read per message); finished ones are forgotten after the job TTL, as the
 * service forgets them.
 */
import type { JobStatus } from '../client/wire-types.ts';

const RECHECK_MS = 2000;

interface Tallied {
  status: JobStatus;
  forgetAt: number;
}

export class JobTally {
  #jobs = new Map<string, Tallied>();
  #read: (id: string) => Promise<JobStatus | null>;
  #ttlMs: number;
  #timer: NodeJS.Timeout;

  constructor(read: (id: string) => Promise<JobStatus | null>, ttlMs: number) {
    this.#read = read;
    this.#ttlMs = ttlMs;
    // Also forgets finished jobs past their TTL, so the tally stays bounded unscraped.
    this.#timer = setInterval(() => {
      for (const [id, job] of this.#jobs) if (job.status === 'running') this.#refresh(id);
      this.counts();
    }, RECHECK_MS);
    this.#timer.unref();
  }

  /** Counts a job this host started. */
  add(id: string, status: JobStatus): void {
    this.#jobs.set(id, { status, forgetAt: Date.now() + this.#ttlMs });
  }

  #refresh(id: string): void {
    this.#read(id).then(
      (status) => {
        const job = this.#jobs.get(id);
        if (!job || job.status !== 'running') return;
        if (status === null) {
          this.#jobs.delete(id);
        } else if (status !== 'running') {
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
    this.#jobs.clear();
  }
}
