/**
 * @module result-service
 * Cache-first computation: the one path /invoke, /data and /start take to a result.
 * spec: Room caching rules 1-10. A hit is served from the room cache; identical requests in
 * flight in the same room share one computation (its progress is replayed to late joiners);
 * the computation is cancelled only when every request waiting on it has gone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RoomCache } from '../cache/room-cache.ts';
import { createHostError } from '../errors.ts';
import { cacheKey } from '../params/params-hash.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../workers/protocol.ts';
import type { InvokerSet, ProgressUpdate } from './invoker.ts';

/** Progress kept for replay to requests that join a computation late. */
const MAX_REPLAY = 1000;

interface Flight {
  promise: Promise<StoredResult>;
  controller: AbortController;
  waiting: number;
  history: ProgressUpdate[];
  listeners: Set<(update: ProgressUpdate) => void>;
}

export interface ComputeRequest {
  entry: FunctionEntry;
  values: Record<string, unknown>;
  roomId: string;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
}

export class ResultService {
  #cache: RoomCache<StoredResult>;
  #invokers: InvokerSet;
  #log: FastifyBaseLogger;
  #flights = new Map<string, Flight>();

  constructor(options: { cache: RoomCache<StoredResult>; invokers: InvokerSet; log: FastifyBaseLogger }) {
    this.#cache = options.cache;
    this.#invokers = options.invokers;
    this.#log = options.log;
  }

  get cache(): RoomCache<StoredResult> {
    return this.#cache;
  }

  #logAccess(kind: 'hit' | 'miss' | 'shared', roomId: string, entry: FunctionEntry, values: Record<string, unknown>): void {
    this.#log.info({ cache: kind, room: roomId, function: entry.name, params: Object.keys(values) }, `cache ${kind}: room=${roomId} function=${entry.name} params=[${Object.keys(values).join(',')}]`);
  }

  /** The cached result for these values in this room, counted and logged as a hit; else undefined. */
  lookup(roomId: string, entry: FunctionEntry, values: Record<string, unknown>): StoredResult | undefined {
    return this.#hit(roomId, entry, values, cacheKey(entry.name, values));
  }

  #hit(roomId: string, entry: FunctionEntry, values: Record<string, unknown>, key: string): StoredResult | undefined {
    const hit = this.#cache.get(roomId, key);
    if (hit) this.#logAccess('hit', roomId, entry, values);
    return hit?.value;
  }

  /** A cached result, or the result of a (possibly shared) computation that is then cached. */
  async compute(request: ComputeRequest): Promise<StoredResult> {
    const { entry, values, roomId } = request;
    const key = cacheKey(entry.name, values);
    const cached = this.#hit(roomId, entry, values, key);
    if (cached) return cached;
    const flightKey = `${roomId}\u0000${key}`;
    let flight = this.#flights.get(flightKey);
    if (flight) {
      this.#logAccess('shared', roomId, entry, values);
    } else {
      this.#logAccess('miss', roomId, entry, values);
      flight = this.#start(entry, values, roomId, key, flightKey);
    }
    return this.#wait(flight, request);
  }

  #start(entry: FunctionEntry, values: Record<string, unknown>, roomId: string, key: string, flightKey: string): Flight {
    const invoker = this.#invokers[entry.source.kind];
    if (!invoker) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', entry.name);
    const controller = new AbortController();
    const flight: Flight = { promise: Promise.resolve(null as never), controller, waiting: 0, history: [], listeners: new Set() };
    const onProgress = (update: ProgressUpdate) => {
      if (flight.history.length < MAX_REPLAY) flight.history.push(update);
      for (const listener of flight.listeners) listener(update);
    };
    flight.promise = invoker
      .invoke(entry, values, { signal: controller.signal, onProgress, roomId })
      .then((result) => {
        this.#cache.set(roomId, key, entry.name, Object.keys(values), result);
        return result;
      })
      .finally(() => this.#flights.delete(flightKey));
    // Waiters attach their own handlers; this one only keeps an unobserved failure quiet.
    flight.promise.catch(() => {});
    this.#flights.set(flightKey, flight);
    return flight;
  }

  #wait(flight: Flight, request: ComputeRequest): Promise<StoredResult> {
    const { signal, onProgress } = request;
    if (signal?.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    flight.waiting++;
    if (onProgress) {
      for (const update of flight.history) onProgress(update);
      flight.listeners.add(onProgress);
    }
    return new Promise<StoredResult>((resolve, reject) => {
      let settled = false;
      const leave = () => {
        if (onProgress) flight.listeners.delete(onProgress);
        signal?.removeEventListener('abort', onAbort);
        settled = true;
      };
      const onAbort = () => {
        if (settled) return;
        leave();
        if (--flight.waiting === 0) flight.controller.abort();
        reject(createHostError('SPC_ERR_JOB_CANCELLED'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (result) => {
          if (settled) return;
          leave();
          flight.waiting--;
          resolve(result);
        },
        (error: unknown) => {
          if (settled) return;
          leave();
          flight.waiting--;
          reject(error);
        },
      );
    });
  }

  /** Cancels every computation under way (shutdown). */
  abortAll(): void {
    for (const flight of this.#flights.values()) flight.controller.abort();
  }
}
