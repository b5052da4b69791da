/**
 * @module load-job
 * The background-job flow (start, progress, result) as one awaitable call: start, follow the
 * job's progress (its event stream, or polling with `since` where the host has no stream; see
 * wait-job.ts), fetch the result once done, or cancel with DELETE when the caller aborts.
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
import type { DataOptions } from './client-options.ts';
import type { SpecimenData } from '../wire/decoded-types.ts';
import { abortError, isAbortError, VitrineJobError } from './errors.ts';
import { waitForJob, type JobWatchEndpoints } from './wait-job.ts';
import type { DeliveryQuery, ProgressMessage, StartResponse } from '../wire/wire-types.ts';

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

/** The host calls following any job needs: its progress and cancelling it. */
export interface JobControlEndpoints extends JobWatchEndpoints {
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
