/**
 * @module result-service
 * Cache-first computation: the one path /invoke, /data and /start take to a result.
 * A hit is served from the room cache (or from a result kept for the same slot and key, put
 * back in the cache: a lone host's data folder after a restart); identical requests in
 * flight in the same room share one computation (its progress is replayed to late joiners);
 * the computation is cancelled only when every request waiting on it has gone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RoomCache } from '../cache/room-cache.ts';
import type { CacheStats } from '../wire/wire-types.ts';
import { computeResult, keyOf, logCacheAccess, roomFailedOf, roomStateOf } from './result-source.ts';
import type { CacheAccess, ComputeRequest, OpenedResult, ResultFigures, ResultSource, RoomEventSink } from './result-source.ts';
import { RoomAsks } from './room-asks.ts';
import type { RoomState } from '../cache/room-state.ts';
import { createHostError } from '../errors.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { InvokerSet, ProgressUpdate } from '../invoke/invoker.ts';
import type { ArrivingResult } from '../results/payload-fill.ts';
import { loadInputs } from '../inputs/load-inputs.ts';
import { joinFlight, tellProgress, type Flight } from './flight.ts';

export class ResultService implements ResultSource {
  #cache: RoomCache<StoredResult>;
  #invokers: InvokerSet;
  #log: FastifyBaseLogger;
  #flights = new Map<string, Flight>();
  #asks = new RoomAsks();
  #publish: RoomEventSink;
  #idOf: (result: StoredResult) => Promise<string | undefined>;
  #recall: ((roomId: string, key: string) => Promise<StoredResult | null>) | null;

  constructor(options: {
    cache: RoomCache<StoredResult>;
    invokers: InvokerSet;
    log: FastifyBaseLogger;
    publish?: RoomEventSink;
    /** The result's id for the room's entry (serving/result-ids.ts); none when absent. */
    idOf?: (result: StoredResult) => Promise<string>;
    /**
     * Where a result kept for a slot and key is found when the cache has none (a lone host's data
     * folder, after a restart): put back in the cache and served as a hit rather than computed.
     */
    recall?: ((roomId: string, key: string) => Promise<StoredResult | null>) | null;
  }) {
    this.#cache = options.cache;
    this.#invokers = options.invokers;
    this.#log = options.log;
    this.#publish = options.publish ?? (() => {});
    const idOf = options.idOf;
    // An id that cannot be worked out leaves the entry without one rather than failing it.
    this.#idOf = idOf ? (result) => idOf(result).catch(() => undefined) : async () => undefined;
    this.#recall = options.recall ?? null;
  }

  get cache(): RoomCache<StoredResult> {
    return this.#cache;
  }

  /** Room-cache lookups since start: hits, misses, and misses that joined a running computation. */
  readonly accessCounts = { hit: 0, miss: 0, shared: 0 };

  #logAccess(kind: CacheAccess, request: ComputeRequest): void {
    this.accessCounts[kind]++;
    logCacheAccess(this.#log, kind, request.roomId, request.entry.name, request.values);
  }

  /** The cached result for these values in this room, counted and logged as a hit; else undefined. */
  lookupSync(request: ComputeRequest): StoredResult | undefined {
    return this.#hit(request, keyOf(request.entry, request.values))?.result;
  }

  async lookup(request: ComputeRequest): Promise<StoredResult | undefined> {
    return this.lookupSync(request);
  }

  async roomState(roomId: string): Promise<RoomState | null> {
    const entry = this.#cache.peek(roomId);
    return entry?.state ? { ...entry.state, since: entry.createdAt } : null;
  }

  async copyEntry(from: string, to: string): Promise<boolean> {
    const entry = this.#cache.peek(from);
    if (!entry?.state) return false;
    this.#cache.set(to, entry.key, entry.functionName, entry.paramKeys, entry.value, entry.state);
    this.#publish(to, { event: 'result', data: entry.state });
    return true;
  }

  async forgetEntry(roomId: string): Promise<void> {
    this.#cache.delete(roomId);
  }

  async stats(): Promise<CacheStats> {
    return this.#cache.stats();
  }

  async clear(): Promise<number> {
    return this.#cache.clear();
  }

  figures(): ResultFigures {
    return { entries: this.#cache.size, bytes: this.#cache.totalBytes, maxBytes: this.#cache.maxBytes };
  }

  #hit(request: ComputeRequest, key: string): OpenedResult | undefined {
    const hit = this.#cache.get(request.roomId, key);
    if (!hit) return undefined;
    this.#logAccess('hit', request);
    const resultId = hit.state?.result_id;
    return resultId ? { result: hit.value, arriving: null, resultId } : { result: hit.value, arriving: null };
  }

  /** The whole result (a helper over `open` for callers that hold this service itself). */
  async compute(request: ComputeRequest): Promise<StoredResult> {
    return computeResult(this, request);
  }

  /**
   * A hit, or the result of the (possibly shared) computation. A request that follows
   * arriving bytes is answered as soon as the result's shape is known: a relayed result comes
   * while its bytes still cross from the worker, so a reply can stream them instead of waiting
   * for the last one. The caller stays among the computation's waiters (its signal can still
   * cancel it) until every byte is in.
   */
  open(request: ComputeRequest): Promise<OpenedResult> {
    return this.#obtain(request, request.followsArriving === true);
  }

  openNow(request: ComputeRequest): OpenedResult | undefined {
    return this.#answer(request, keyOf(request.entry, request.values));
  }

  /** The room's entry under `key` as this request's answer: a hit, and (but for an input or a follower's echo) the room's latest ask. */
  #answer(request: ComputeRequest, key: string): OpenedResult | undefined {
    const cached = this.#hit(request, key);
    if (cached && !request.asInput && !request.echo) this.#asks.hit(request.roomId);
    return cached;
  }

  /** A hit, or joins the flight computing these values in this room (starting one if none). */
  async #obtain(request: ComputeRequest, early: boolean): Promise<OpenedResult> {
    const key = keyOf(request.entry, request.values);
    // Without a recall nothing is awaited before the flight starts: a request cancelled at once finds it.
    const cached = this.#answer(request, key) ?? (this.#recall ? await this.#recalled(request, key) : undefined);
    if (cached) return cached;
    const flightKey = `${request.roomId}\u0000${key}`;
    let flight = this.#flights.get(flightKey);
    // A flight every waiter left is cancelled, though it may not have ended yet: its result will
    // not be the room's, so a new request (a slider set back, a layer computed again) starts anew.
    if (flight?.controller.signal.aborted) flight = undefined;
    if (flight) {
      this.#logAccess('shared', request);
    } else {
      this.#logAccess('miss', request);
      flight = this.#start(request, key, flightKey);
    }
    return joinFlight(flight, request, early);
  }

  /** The result kept for the request's slot and key, put back in the cache (nothing computed, no event: the room shows it already). */
  async #recalled(request: ComputeRequest, key: string): Promise<OpenedResult | undefined> {
    const { entry, values, roomId } = request;
    if (this.#flights.has(`${roomId}\u0000${key}`)) return undefined;
    const result = await this.#recall!(roomId, key).catch(() => null);
    if (!result) return undefined;
    // Another request may have put it back (or computed it) meanwhile.
    if (!this.#cache.get(roomId, key)) {
      const resultId = await this.#idOf(result);
      const state: RoomState = resultId ? { ...roomStateOf(request), result_id: resultId, blob_id: resultId } : roomStateOf(request);
      this.#cache.set(roomId, key, entry.name, Object.keys(values), result, state);
    }
    return this.#answer(request, key);
  }

  #start(request: ComputeRequest, key: string, flightKey: string): Flight {
    const { entry, values, roomId, job } = request;
    const invoker = this.#invokers.get(entry.source.kind);
    if (!invoker) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', entry.name);
    const controller = new AbortController();
    // An input's computation neither counts as asked nor waits its turn: the room was asked for what takes it.
    const asked = request.asInput ? null : this.#asks.started(roomId);
    let onArriving: (arriving: ArrivingResult) => void = () => {};
    const flight: Flight = {
      promise: Promise.resolve(null as never),
      controller,
      waiting: 0,
      history: [],
      listeners: new Set(),
      arriving: new Promise((resolve) => (onArriving = resolve)),
    };
    const onProgress = (update: ProgressUpdate) => tellProgress(flight, update);
    const ready = request.inputs ? loadInputs(values, request.inputs, { roomId, signal: controller.signal, onProgress }) : Promise.resolve(values);
    flight.promise = ready
      .then((loaded) => invoker.invoke(entry, loaded, { signal: controller.signal, onProgress, roomId, onArriving, ...(job ? { job } : {}) }))
      .then(async (result) => {
        // A computation every waiter left (a slider step replaced at once, a cancelled job) may
        // still finish before the cancel reaches it. Its result is not the room's: writing it
        // would put an abandoned value in front of the room after the newer one its peer shows.
        if (controller.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
        // The entry carries its result id, so `state` and `result` events can name it, and its
        // blob id: the entry's bytes in their default form are the blob named by the result id.
        const resultId = await this.#idOf(result);
        // Something asked after it in its room (room-asks.ts): its waiters get it, the room keeps
        // the newer. A job's result is always the room's: it stays there for a later request.
        if (asked !== null && !job && !this.#asks.isLatest(roomId, asked)) return result;
        const state: RoomState = resultId ? { ...roomStateOf(request), result_id: resultId, blob_id: resultId } : roomStateOf(request);
        this.#cache.set(roomId, key, entry.name, Object.keys(values), result, state);
        this.#publish(roomId, { event: 'result', data: state });
        return result;
      })
      .finally(() => {
        if (asked !== null) this.#asks.ended(roomId);
        // A newer flight of the same values may have taken the slot after this one was left.
        if (this.#flights.get(flightKey) === flight) this.#flights.delete(flightKey);
      });
    // Every follower of the room learns that no result will come (waiters get the error themselves).
    flight.promise.catch((error: unknown) => this.#publish(roomId, { event: 'failed', data: roomFailedOf(request, error) }));
    this.#flights.set(flightKey, flight);
    this.#publish(roomId, { event: 'computing', data: { ...roomStateOf(request), job_id: job?.id ?? null } });
    return flight;
  }

  /** Cancels every computation under way (shutdown). */
  abortAll(): void {
    for (const flight of this.#flights.values()) flight.controller.abort();
  }
}
