/**
 * @module flight
 * A computation under way in a room, and how a request joins it: identical requests in flight
 * in the same room share one computation, a late joiner is replayed the progress so far, and
 * the computation is cancelled only when every request waiting on it has gone.
 */
import { createHostError } from '../errors.ts';
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ArrivingResult } from '../results/payload-fill.ts';
import type { ComputeRequest, OpenedResult } from './result-source.ts';

/** Progress kept for replay to requests that join a computation late. */
const MAX_REPLAY = 1000;

export interface Flight {
  promise: Promise<StoredResult>;
  controller: AbortController;
  waiting: number;
  history: ProgressUpdate[];
  listeners: Set<(update: ProgressUpdate) => void>;
  /** Settles once a relayed result's shape is known and its bytes are on their way (never for one computed here). */
  arriving: Promise<ArrivingResult>;
}

/** Tells the flight's waiters of `update`, and keeps it for those who join later. */
export function tellProgress(flight: Flight, update: ProgressUpdate): void {
  if (flight.history.length < MAX_REPLAY) flight.history.push(update);
  for (const listener of flight.listeners) listener(update);
}

/**
 * Joins a flight: resolves with its result, or with the arriving result first when `early`.
 * An early waiter keeps counting as waiting (and its signal keeps cancelling) until the
 * flight settles, because its reply is still reading the bytes.
 */
export function joinFlight(flight: Flight, request: ComputeRequest, early: boolean): Promise<OpenedResult> {
  const { signal, onProgress } = request;
  if (signal?.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
  flight.waiting++;
  if (onProgress) {
    for (const update of flight.history) onProgress(update);
    flight.listeners.add(onProgress);
  }
  return new Promise<OpenedResult>((resolve, reject) => {
    let left = false;
    let answered = false;
    const answer = (opened: OpenedResult) => {
      if (answered) return;
      answered = true;
      resolve(opened);
    };
    const leave = () => {
      if (onProgress) flight.listeners.delete(onProgress);
      signal?.removeEventListener('abort', onAbort);
      left = true;
    };
    const onAbort = () => {
      if (left) return;
      leave();
      if (--flight.waiting === 0) flight.controller.abort();
      if (!answered) reject(createHostError('SPC_ERR_JOB_CANCELLED'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // A reader that follows arriving bytes is answered as soon as they start to arrive.
    if (early) {
      void flight.arriving.then((arriving) => {
        if (!left) answer({ result: arriving.result, arriving });
      });
    }
    flight.promise.then(
      (result) => {
        if (left) return;
        leave();
        flight.waiting--;
        answer({ result, arriving: null });
      },
      (error: unknown) => {
        if (left) return;
        leave();
        flight.waiting--;
        // An early waiter already answered learns of the failure from `arriving` itself.
        if (!answered) reject(error);
        answered = true;
      },
    );
  });
}
