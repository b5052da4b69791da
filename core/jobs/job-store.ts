/**
 * @module job-store
 * JobStore: creates, runs, cancels and sweeps jobs. A job runs through whatever `run`
 * callback it is given (the result service, which picks the local pool or a relayed worker),
 * so the store does not care where the work happens. Every job ends: it succeeds, fails, is
 * cancelled, times out, or is ended when the host closes; finished jobs are swept after
 * their time-to-live (after which every job route answers 404). Running jobs are admitted up
 * to `maxRunning` (then 503 with Retry-After); finished jobs' results are held in the host's
 * byte budget, which may drop them early (their /result then answers 410).
 */
import { randomUUID } from 'node:crypto';
import type { ResultBudget } from '../cache/result-budget.ts';
import { createHostError, isHostError, type HostError } from '../errors.ts';
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { Job, type JobMeta } from './job.ts';

export interface JobStoreOptions {
  ttlSeconds: number;
  timeoutSeconds: number;
  maxMessages: number;
  /** Finished jobs kept at most (the oldest go first). */
  maxFinished: number;
  /** Queued and running jobs at most; past it `start` refuses with 503. */
  maxRunning: number;
  /** Holds finished jobs' results; may drop them. */
  budget?: ResultBudget<StoredResult>;
  /** Called when a job gets a message or ends (event streams re-read it). */
  onChange?: (job: Job) => void;
}

/** Seconds a client refused for too many jobs is asked to wait. */
const RETRY_AFTER_SECONDS = 5;

/** The 503 of a host past its bound of jobs (`max`), asking the client to come back in a few seconds. */
export function tooManyJobs(max: number): HostError {
  const error = createHostError('SPC_ERR_TOO_MANY_JOBS', String(max));
  error.headers['retry-after'] = String(RETRY_AFTER_SECONDS);
  return error;
}

/** The work of a job; it gets the job's id so a relayed run can name the job on its worker. */
export type JobRun = (signal: AbortSignal, onProgress: (update: ProgressUpdate) => void, jobId: string) => Promise<StoredResult>;

export class JobStore {
  #jobs = new Map<string, Job>();
  #options: JobStoreOptions;
  #running = 0;

  constructor(options: JobStoreOptions) {
    this.#options = options;
  }

  get(id: string): Job | undefined {
    return this.#jobs.get(id);
  }

  #create(meta: JobMeta, id: string = randomUUID()): Job {
    if (this.#jobs.has(id)) throw new Error(`job id ${id} is already in use`);
    const job = new Job(id, meta, this.#options.maxMessages);
    this.#jobs.set(job.id, job);
    this.#enforceBound();
    return job;
  }

  /** A job that is done at once (a cache hit on /start). */
  createDone(meta: JobMeta, result: StoredResult): Job {
    const job = this.#create(meta);
    this.#succeed(job, result);
    return job;
  }

  /**
   * Starts `run` as a job and returns it while it runs. `id` is for a worker keeping a relay's
   * job under the relay's id; the caller checks it is free (`get`).
   */
  start(meta: JobMeta, run: JobRun, id?: string): Job {
    if (this.#running >= this.#options.maxRunning) throw tooManyJobs(this.#options.maxRunning);
    const job = this.#create(meta, id);
    this.#running++;
    const timeout = setTimeout(() => this.#end(job, `timed out after ${this.#options.timeoutSeconds} s`), this.#options.timeoutSeconds * 1000);
    timeout.unref();
    run(job.controller.signal, (update) => {
      job.append(update);
      this.#options.onChange?.(job);
    }, job.id).then(
      (result) => this.#succeed(job, result),
      (error: unknown) => {
        const message = isHostError(error) && error.code === 'SPC_ERR_JOB_CANCELLED' ? 'cancelled' : error instanceof Error ? error.message : String(error);
        if (job.fail(message)) this.#ended(job);
      },
    ).finally(() => {
      clearTimeout(timeout);
      this.#running--;
    });
    return job;
  }

  #succeed(job: Job, result: StoredResult): void {
    if (!job.succeed(result)) return;
    this.#options.budget?.hold(result, `job:${job.id}`, () => {
      job.result = null;
      job.resultEvicted = true;
    });
    this.#ended(job);
  }

  #ended(job: Job): void {
    this.#scheduleSweep(job);
    this.#options.onChange?.(job);
  }

  /** Marks a done job's result as just read (the budget drops least recently used first). */
  touch(job: Job): void {
    if (job.result) this.#options.budget?.touch(job.result);
  }

  /** Queued and running jobs (what `maxRunning` bounds). */
  get running(): number {
    return this.#running;
  }

  #forget(job: Job): void {
    if (job.sweepTimer) clearTimeout(job.sweepTimer);
    if (job.result) this.#options.budget?.release(job.result, `job:${job.id}`);
    this.#jobs.delete(job.id);
  }

  #end(job: Job, reason: string): void {
    if (job.fail(reason)) {
      job.controller.abort();
      this.#ended(job);
    }
  }

  /** Cancels a running job (it ends as error "cancelled"); false for an unknown id. */
  cancel(id: string): boolean {
    const job = this.#jobs.get(id);
    if (!job) return false;
    this.#end(job, 'cancelled');
    return true;
  }

  /** Ends every running job as an error matching `predicate` (a lost worker, shutdown). */
  failWhere(predicate: (job: Job) => boolean, reason: string): number {
    let n = 0;
    for (const job of this.#jobs.values()) {
      if (job.status === 'running' && predicate(job)) {
        this.#end(job, reason);
        n++;
      }
    }
    return n;
  }

  #scheduleSweep(job: Job): void {
    if (job.sweepTimer) return;
    job.sweepTimer = setTimeout(() => this.#forget(job), this.#options.ttlSeconds * 1000).unref();
  }

  /** Past maxFinished finished jobs, the oldest go first. */
  #enforceBound(): void {
    if (this.#jobs.size - this.#running <= this.#options.maxFinished) return;
    for (const job of this.#jobs.values()) {
      if (this.#jobs.size - this.#running <= this.#options.maxFinished) break;
      if (job.status !== 'running') this.#forget(job);
    }
  }

  /** Jobs by state, for metrics. */
  countByState(): Record<'running' | 'done' | 'error', number> {
    const counts = { running: 0, done: 0, error: 0 };
    for (const job of this.#jobs.values()) counts[job.status]++;
    return counts;
  }

  get size(): number {
    return this.#jobs.size;
  }

  /** Ends running jobs and forgets everything (host shutdown). */
  close(reason = 'the host shut down'): void {
    this.failWhere(() => true, reason);
    for (const job of [...this.#jobs.values()]) this.#forget(job);
  }
}
