/**
 * @module local-runs
 * What federation asks of this host's own result service and job store, and nothing more:
 * run a relay's request here (through this host's room cache and shared flights, never a
 * Redis service's), keep a relay's job under the relay's id while it runs, and forget what a
 * departed worker left behind. The assembly builds it (`createLocalRuns`) over the in-memory
 * services; federation never reaches them otherwise.
 */
import { isHostError } from '../errors.ts';
import type { JobMeta } from '../jobs/job.ts';
import type { JobStore } from '../jobs/job-store.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultService } from '../serving/result-service.ts';
import type { ComputeRequest } from '../serving/result-source.ts';

/** A relay's job a relayed run belongs to, kept here under the relay's own id. */
export interface RelayedJob {
  id: string;
  meta: JobMeta;
}

export interface LocalRuns {
  /** Whether `id` is free here to keep a relay's job under (no job of this host has it). */
  jobIdFree(id: string): boolean;
  /**
   * Computes `request` on this host's own result service. With `job`, as this host's own
   * job under the relay's id: its status and progress show here too, a DELETE here ends it,
   * and `request.signal` (the relay cancelling) cancels the job.
   */
  run(request: ComputeRequest, job: RelayedJob | null): Promise<StoredResult>;
  /**
   * Forgets a departed worker: this host's running jobs of functions named with `prefix` end
   * with `why`, and its room entries of them go. Returns how many jobs ended.
   */
  forget(prefix: string, why: string): number;
}

export function createLocalRuns(results: ResultService, jobs: JobStore): LocalRuns {
  async function runAsOwnedJob(request: ComputeRequest, job: RelayedJob): Promise<StoredResult> {
    const signal = request.signal;
    let outcome!: Promise<StoredResult>;
    jobs.start(
      job.meta,
      (jobSignal, onProgress) => (outcome = results.compute({ ...request, signal: jobSignal, onProgress: chain(request.onProgress, onProgress) })),
      job.id,
    );
    signal?.addEventListener('abort', () => jobs.cancel(job.id), { once: true });
    try {
      return await outcome;
    } catch (error) {
      // Ended here for another reason than a cancel (timed out, shutting down): say so.
      const ended = jobs.get(job.id);
      if (isHostError(error) && error.code === 'SPC_ERR_JOB_CANCELLED' && ended?.error && ended.error !== 'cancelled') throw new Error(ended.error);
      throw error;
    }
  }
  return {
    jobIdFree: (id) => !jobs.get(id),
    run: (request, job) => (job ? runAsOwnedJob(request, job) : results.compute(request)),
    forget(prefix, why) {
      const failed = jobs.failWhere((job) => job.meta.functionName.startsWith(prefix), why);
      results.cache.deleteWhere((entry) => entry.functionName.startsWith(prefix));
      return failed;
    },
  };
}

type OnProgress = ComputeRequest['onProgress'];

/** Both progress callbacks, the job's first (it records), then the request's (it forwards). */
function chain(forward: OnProgress, record: OnProgress): OnProgress {
  if (!forward) return record;
  if (!record) return forward;
  return (update) => {
    record(update);
    forward(update);
  };
}
