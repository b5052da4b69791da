/**
 * @module load-job
 * The background-job flow (start, progress, result) as one awaitable call: start, follow the
 * job's progress (its event stream, or polling with `since` where the host has no stream),
 * fetch the result once done, or cancel with DELETE when the caller aborts.
 *
 * The result is fetched with `GET /api/specimens/{id}/data` and the same params and room, not
 * with `GET /api/jobs/{id}/result`, by default:
 * - a finished job's result stays in the room cache under its parameters, so `/data` is a cache hit that answers at once;
 * - `/data` sends mesh and volume results as the binary envelope: about a third of the JSON
 *   size (no base64, no decimal floats), decoded into typed array views without parsing;
 * - it does not depend on the job id, which the host sweeps after its time-to-live.
 * If another peer replaced the room's single cache entry in between, `/data` recomputes and
 * the answer is still the right one. `resultVia: 'job'` selects `/jobs/{id}/result` instead.
 * A function started without a specimen has no `/data`, so its flow (`runJobFlow`, as
 * `VitrineClient.runFunction` uses it) takes the job's result.
 */
import { sleep } from './abortable-sleep.ts';
import type { DataOptions } from './client-options.ts';
import type { SpecimenData } from '../wire/decoded-types.ts';
import { abortError, isAbortError, VitrineHttpError, VitrineJobError } from './errors.ts';
import type { FollowJobOptions } from './follow-events.ts';
import type { DeliveryQuery, JobEnd, JobEvent, ProgressMessage, ProgressResponse, StartResponse } from '../wire/wire-types.ts';

/** How any job is followed: `VitrineClient.load` (a specimen) and `runFunction` (a function) alike. */
export interface JobFlowOptions {
  /** The room whose cache serves and stores the result. @defaultValue `service` (host side) */
  room?: string;
  /** Aborting rejects the call with an `AbortError` and cancels the running job (DELETE). */
  signal?: AbortSignal;
  /** Called once per progress message, in `seq` order, never twice for the same message. */
  onProgress?: (message: ProgressMessage, jobId: string) => void;
  /** Called with the start response (`status` is `done` at once on a room cache hit). */
  onStart?: (start: StartResponse) => void;
  /**
   * How progress arrives: `'events'` takes the job's event stream and falls back to polling
   * when the host does not offer it or it keeps failing; `'poll'` only polls.
   * @defaultValue `'events'`
   */
  progressVia?: 'events' | 'poll';
  /** Delay between progress polls (when polling). @defaultValue 250 */
  pollIntervalMs?: number;
}

/** Options of {@link runJob} and `VitrineClient.load`. */
export interface LoadOptions extends JobFlowOptions {
  /** Where the result comes from once the job is done. @defaultValue `'data'` */
  resultVia?: 'data' | 'job';
  /** Delivery options of the final `/data` request (not used with `resultVia: 'job'`). */
  delivery?: DeliveryQuery;
  /** Called with the final `/data` answer once its headers have come, before its body is read. */
  onHeaders?: (response: Response) => void;
  /** The final `/data` reads what the room shows for a follower (`DataOptions.follows`). */
  follows?: boolean;
}

/** Failed stream connections in a row before waiting switches to polling. */
const STREAM_RETRIES = 3;
/** Consecutive transport failures (not HTTP errors) tolerated while polling. */
const POLL_RETRIES = 3;

/**
 * Follows a running job to its end, reporting each progress message once and in seq order,
 * and resolves with that end (`done` or `error`). It takes the job's event stream when the host offers it and polls
 * `/progress?since=` otherwise: when the events route is missing (an older host answers 404
 * or 405), something in front of the host does not pass event streams, or the stream fails
 * several times in a row. Polling resumes after the last seq the stream delivered, so the
 * switch neither repeats nor skips a message, and any real failure (an unknown job's 404)
 * comes from the polling request itself.
 */
async function waitForJob(
  api: JobControlEndpoints,
  jobId: string,
  options: Pick<JobFlowOptions, 'signal' | 'onProgress'> & Required<Pick<JobFlowOptions, 'pollIntervalMs' | 'progressVia'>>,
): Promise<Omit<JobEnd, 'job_id'>> {
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

/** The host calls following any job needs: its progress and cancelling it. */
export interface JobControlEndpoints {
  progress(jobId: string, since?: number, signal?: AbortSignal): Promise<ProgressResponse>;
  followJob(jobId: string, options?: FollowJobOptions): AsyncIterator<JobEvent>;
  cancel(jobId: string): Promise<void>;
}

/** The host calls the specimen job flow needs (implemented by `VitrineClient`). */
export interface JobEndpoints extends JobControlEndpoints {
  startJob(specimenId: string, options: { params?: Record<string, unknown>; room?: string }): Promise<StartResponse>;
  result(jobId: string, signal?: AbortSignal): Promise<SpecimenData>;
  getData(
    specimenId: string,
    options: Pick<DataOptions, 'params' | 'room' | 'signal' | 'delivery' | 'onHeaders' | 'follows'>,
  ): Promise<SpecimenData>;
}

/** Rejects with an AbortError as soon as `signal` aborts, else settles like `promise`. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise
      .then(resolve, (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))))
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What one job flow starts, and where its result comes from once the job is done. */
export interface JobFlow<T> {
  start(): Promise<StartResponse>;
  result(jobId: string, signal: AbortSignal | undefined): Promise<T>;
}

/**
 * Starts `flow`'s job, follows it to its end (each progress message once, in order) and
 * resolves with its result. Whatever began the job (a specimen's `/start` or a function's),
 * following, cancelling and the errors are the same.
 * @throws VitrineHttpError when the start, a poll or the result fetch is refused (e.g. 400 for invalid params).
 * @throws VitrineJobError when the job ends with status `error`.
 * @throws AbortError (a DOMException) when `options.signal` aborts; the job is cancelled.
 */
export async function runJobFlow<T>(api: JobControlEndpoints, flow: JobFlow<T>, options: JobFlowOptions = {}): Promise<T> {
  const { signal, onProgress, onStart, pollIntervalMs = 250, progressVia = 'events' } = options;
  if (signal?.aborted) throw abortError(signal);
  // The start request is not tied to the signal: once sent, the host may have created the job,
  // so an abort waits for its id (in the background) and cancels it.
  const starting = flow.start();
  let start: StartResponse;
  try {
    start = await untilAborted(starting, signal);
  } catch (error) {
    if (isAbortError(error)) {
      starting.then((late) => (late.status === 'running' ? api.cancel(late.job_id) : undefined)).catch(() => {});
    }
    throw error;
  }
  onStart?.(start);
  const jobId = start.job_id;
  let status = start.status;
  try {
    if (status === 'running') {
      const end = await waitForJob(api, jobId, { signal, onProgress, pollIntervalMs, progressVia });
      status = end.status;
      if (end.status === 'error') throw new VitrineJobError(jobId, end.error ?? 'unknown error');
    }
    if (status === 'error') throw new VitrineJobError(jobId, 'unknown error');
  } catch (error) {
    if (isAbortError(error) && status === 'running') await api.cancel(jobId).catch(() => {});
    throw error;
  }
  return flow.result(jobId, signal);
}

/**
 * Runs a dynamic specimen as a background job and resolves with its decoded result.
 * @throws VitrineHttpError when the start, a poll or the result fetch is refused (e.g. 400 for invalid params).
 * @throws VitrineJobError when the job ends with status `error`.
 * @throws AbortError (a DOMException) when `options.signal` aborts; the job is cancelled.
 */
export function runJob(
  api: JobEndpoints,
  specimenId: string,
  params: Record<string, unknown> | undefined,
  options: LoadOptions = {},
): Promise<SpecimenData> {
  const { room, resultVia = 'data' } = options;
  return runJobFlow(
    api,
    {
      start: () => api.startJob(specimenId, { params, room }),
      result: (jobId, signal) =>
        resultVia === 'job'
          ? api.result(jobId, signal)
          : api.getData(specimenId, { params, room, signal, delivery: options.delivery, onHeaders: options.onHeaders, follows: options.follows }),
    },
    options,
  );
}
