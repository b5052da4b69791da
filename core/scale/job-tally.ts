/**
 * @module job-tally
 * The jobs this host started in a Redis service, by state, for `counts()` and /metrics:
 * each running job's status is re-read when its computation or the job itself is nudged (and
 * every 2 s besides, for a lost message); finished ones are forgotten after the job TTL, as
 * the service forgets them.
 */
import type { JobStatus } from '../client/wire-types.ts';
import type { RedisEvents } from './redis-events.ts';

const RECHECK_MS = 2000;

interface Tallied {
  status: JobStatus;
  forgetAt: number;
  stop: () => void;
}

export class JobTally {
  #jobs = new Map<string, Tallied>();
  #events: RedisEvents;
  #read: (id: string) => Promise<JobStatus | null>;
  #ttlMs: number;
  #timer: NodeJS.Timeout;

  constructor(events: RedisEvents, read: (id: string) => Promise<JobStatus | null>, ttlMs: number) {
    this.#events = events;
    this.#read = read;
    this.#ttlMs = ttlMs;
    this.#timer = setInterval(() => {
      for (const [id, job] of this.#jobs) if (job.status === 'running') this.#refresh(id);
    }, RECHECK_MS);
    this.#timer.unref();
  }

  /** Counts a job this host started; a running one is followed through `cid`'s nudges. */
  add(id: string, status: JobStatus, cid: string | null): void {
    const offs: (() => void)[] = [];
    const job: Tallied = { status, forgetAt: Date.now() + this.#ttlMs, stop: () => offs.forEach((off) => off()) };
    this.#jobs.set(id, job);
    if (status !== 'running') return;
    offs.push(this.#events.watch(id, () => this.#refresh(id)));
    if (cid) offs.push(this.#events.watch(cid, () => this.#refresh(id)));
  }

  #refresh(id: string): void {
    this.#read(id).then(
      (status) => {
        const job = this.#jobs.get(id);
        if (!job || job.status !== 'running') return;
        if (status === null) {
          job.stop();
          this.#jobs.delete(id);
        } else if (status !== 'running') {
          job.status = status;
          job.forgetAt = Date.now() + this.#ttlMs;
          job.stop();
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
    for (const job of this.#jobs.values()) job.stop();
    this.#jobs.clear();
  }
}
