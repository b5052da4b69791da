/**
 * @module job-service
 * The interface the job routes and event streams use: start, progress, result, cancel, and a
 * nudge when a job may have changed. Two implementations beside it: LocalJobs (one host, in
 * memory) and RedisJobs, where every host of a service answers for every job; both run the
 * jobs conformance cases.
 */
import type { JobStatus, ProgressResponse, StartResponse } from '../wire/wire-types.ts';
import type { ComputeRequest } from '../serving/result-source.ts';
import type { Provenance } from '../wire/provenance-types.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** What `/start` asks for: the computation, and the specimen it is for. */
export interface JobRequest extends ComputeRequest {
  specimenId: string | null;
}

/** A done job's result, the function that made it and, where the host knows it, what made it. */
export interface JobResult {
  result: StoredResult;
  functionName: string;
  provenance?: Provenance;
}

export interface JobService {
  /** Starts a job computing `request`; a room-cache hit is a job done at once. 503 past the bound. */
  start(request: JobRequest): Promise<StartResponse>;
  /** Status and messages with seq above `since`. @throws SPC_ERR_JOB_NOT_FOUND */
  progress(id: string, since: number): Promise<ProgressResponse>;
  /** The result of a done job. @throws 404, 409 running, 410 failed or result dropped */
  result(id: string): Promise<JobResult>;
  /** Cancels a running job (it ends `error`/`cancelled`); false for an unknown id. */
  cancel(id: string): Promise<boolean>;
  /**
   * Calls `onChange` whenever the job may have changed (a message, its end) until the returned
   * function is called. Callers re-read `progress`; a nudge may come without a change.
   */
  watch(id: string, onChange: () => void): () => void;
  /** Jobs by state this host knows of, for metrics. */
  counts(): Record<JobStatus, number>;
  close(): void;
}
