/**
 * @module local-jobs
 * LocalJobs: the in-memory JobService of a single host. Jobs live in the JobStore, run through
 * the ResultService, and nudge their EventHub channel (jobChannel) on every change.
 */
import { createHostError } from '../errors.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { ResultService } from '../serving/result-service.ts';
import type { JobStatus, ProgressResponse, StartResponse } from '../wire/wire-types.ts';
import { jobChannel } from '../events/channels.ts';
import { resultOf, toProgressResponse, toStartResponse } from './job.ts';
import type { JobRequest, JobResult, JobService } from './job-service.ts';
import { provenanceOf } from '../versions/provenance.ts';
import type { JobStore } from './job-store.ts';

export class LocalJobs implements JobService {
  #store: JobStore;
  #results: ResultService;
  #events: EventHub;

  constructor(store: JobStore, results: ResultService, events: EventHub) {
    this.#store = store;
    this.#results = results;
    this.#events = events;
  }

  async start(request: JobRequest): Promise<StartResponse> {
    const { entry, roomId, specimenId } = request;
    const meta = { specimenId, functionName: entry.name, roomId, provenance: provenanceOf(entry, request.values) };
    const cached = this.#results.lookupSync(request);
    if (cached) return toStartResponse(this.#store.createDone(meta, cached));
    const job = this.#store.start(meta, (signal, onProgress, jobId) =>
      this.#results.compute({ ...request, signal, onProgress, job: { id: jobId, specimenId } }),
    );
    return toStartResponse(job);
  }

  async progress(id: string, since: number): Promise<ProgressResponse> {
    const job = this.#store.get(id);
    if (!job) throw createHostError('SPC_ERR_JOB_NOT_FOUND', id);
    return toProgressResponse(job, since);
  }

  async result(id: string): Promise<JobResult> {
    const job = this.#store.get(id);
    const result = resultOf(job, id);
    this.#store.touch(job!);
    return { result, functionName: job!.meta.functionName, ...(job!.meta.provenance ? { provenance: job!.meta.provenance } : {}) };
  }

  async cancel(id: string): Promise<boolean> {
    return this.#store.cancel(id);
  }

  watch(id: string, onChange: () => void): () => void {
    return this.#events.subscribe(jobChannel(id), onChange);
  }

  counts(): Record<JobStatus, number> {
    return this.#store.countByState();
  }

  close(): void {
    this.#store.close();
  }
}
