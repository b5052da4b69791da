/**
 * @module job-views
 * Wire shapes of jobs: the start response, the progress response and the result lookup
 * (200 done, 409 running, 410 error or result dropped by the byte budget, 404 unknown).
 */
import { createHostError } from '../errors.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ProgressResponse, StartResponse } from '../wire/wire-types.ts';
import type { Job } from './job.ts';

export function toStartResponse(job: Job): StartResponse {
  return { job_id: job.id, status: job.status };
}

export function toProgressResponse(job: Job, since: number): ProgressResponse {
  return { status: job.status, messages: job.messagesSince(since), error: job.error };
}

/** The finished job's result, or the catalogued error for its state. */
export function resultOf(job: Job | undefined, id: string): StoredResult {
  if (!job) throw createHostError('SPC_ERR_JOB_NOT_FOUND', id);
  if (job.status === 'running') throw createHostError('SPC_ERR_JOB_RUNNING', id);
  if (job.resultEvicted) throw createHostError('SPC_ERR_JOB_RESULT_EVICTED', id);
  if (job.status === 'error' || !job.result) throw createHostError('SPC_ERR_JOB_FAILED', id, job.error ?? 'unknown error');
  return job.result;
}
