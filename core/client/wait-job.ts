/**
 * @module wait-job
 * waitForJob: follows a running job to its end, reporting each progress message once and in
 * seq order. It takes the job's event stream when the host offers it and polls
 * `/progress?since=` otherwise: when the events route is missing (an older host answers 404
 * or 405), something in front of the host does not pass event streams, or the stream fails
 * several times in a row. Polling resumes after the last seq the stream delivered, so the
 * switch neither repeats nor skips a message, and any real failure (an unknown job's 404)
 * comes from the polling request itself.
 */
import { sleep } from './abortable-sleep.ts';
import { isAbortError, VitrineHttpError } from './errors.ts';
import type { FollowJobOptions } from './follow-job.ts';
import type { JobEnd, JobEvent, ProgressMessage, ProgressResponse } from '../wire/wire-types.ts';

/** The host calls waiting needs (implemented by `VitrineClient`). */
export interface JobWatchEndpoints {
  progress(jobId: string, since?: number, signal?: AbortSignal): Promise<ProgressResponse>;
  followJob(jobId: string, options?: FollowJobOptions): AsyncIterator<JobEvent>;
}

export interface WaitOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((message: ProgressMessage, jobId: string) => void) | undefined;
  /** Delay between polls when polling. */
  pollIntervalMs: number;
  /** `'events'`: the stream first, polling as the fallback; `'poll'`: polling only. */
  progressVia: 'events' | 'poll';
}

/** Failed stream connections in a row before waiting switches to polling. */
const STREAM_RETRIES = 3;
/** Consecutive transport failures (not HTTP errors) tolerated while polling. */
const POLL_RETRIES = 3;

/** Resolves with the job's end (`done` or `error`), having reported every message before it. */
export async function waitForJob(api: JobWatchEndpoints, jobId: string, options: WaitOptions): Promise<Omit<JobEnd, 'job_id'>> {
  const { signal, onProgress, pollIntervalMs } = options;
  let since = -1;
  const report = (message: ProgressMessage): void => {
    if (message.seq <= since) return;
    since = message.seq;
    onProgress?.(message, jobId);
  };
  if (options.progressVia === 'events') {
    const events = api.followJob(jobId, { signal, maxRetries: STREAM_RETRIES });
    try {
      for (;;) {
        let next: IteratorResult<JobEvent>;
        try {
          next = await events.next();
        } catch (error) {
          if (isAbortError(error)) throw error;
          break; // the stream is not available or keeps failing: poll from `since` on
        }
        if (next.done) break;
        // The caller's onProgress runs outside the try above: its own error is not a stream failure.
        if (next.value.event === 'progress') report(next.value.data);
        else return { status: next.value.data.status, error: next.value.data.error };
      }
    } finally {
      await events.return?.();
    }
  }
  let failures = 0;
  for (;;) {
    let progress: ProgressResponse;
    try {
      progress = await api.progress(jobId, since, signal);
      failures = 0;
    } catch (error) {
      if (isAbortError(error) || error instanceof VitrineHttpError || ++failures > POLL_RETRIES) throw error;
      await sleep(pollIntervalMs, signal);
      continue;
    }
    for (const message of progress.messages) report(message);
    if (progress.status !== 'running') return { status: progress.status, error: progress.error };
    await sleep(pollIntervalMs, signal);
  }
}
