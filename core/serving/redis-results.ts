/**
 * @module redis-results
 * ResultSource for a Redis service: the room pointer decides hits service-wide (one entry per
 * room), identical requests on any host join one computation, and the bytes come from this
 * host's memory LRU or, once, from Redis (for `open`, sent as they arrive). Plugin functions
 * run on compute nodes and a relay's workers' functions through the relay host; functions
 * registered in code stay on this host's own ResultService, as before.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CacheStats } from '../wire/wire-types.ts';
import { createHostError } from '../errors.ts';
import {
  keyOf,
  logCacheAccess,
  roomStateOf,
  type CacheAccess,
  type ComputeRequest,
  type OpenedResult,
  type ResultFigures,
  type ResultSource,
} from './result-source.ts';
import type { RoomState } from '../cache/room-state.ts';
import { statsRoom } from '../cache/room-cache.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { BlobRef } from '../blobs/blob-store.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storeInputs } from './input-refs.ts';
import { laneOf, runsOnService, type ClaimRequest, type ServiceComputations } from './service-computations.ts';
import { pinnedBundle } from '../registry/function-entry.ts';

/** Computations run for one request whose bytes the blob store keeps evicting before giving up. */
const COMPUTE_ATTEMPTS = 4;

export class RedisResults implements ResultSource {
  #comps: ServiceComputations;
  #local: ResultSource;
  #log: FastifyBaseLogger;
  #closing = new AbortController();
  readonly accessCounts = { hit: 0, miss: 0, shared: 0 };
  // Made once, not per request: how a hit's bytes are read (whole, or to send as they arrive).
  readonly #read = (ref: BlobRef): Promise<StoredResult | null> => this.#comps.read(ref);
  // A blob's hash is its result's id: the reply need not ask for it again.
  readonly #open = async (ref: BlobRef): Promise<OpenedResult | null> => {
    const opened = await this.#comps.open(ref);
    return opened ? { ...opened, resultId: ref.hash } : null;
  };
  readonly #readWhole = async (ref: BlobRef): Promise<OpenedResult | null> => {
    const result = await this.#comps.read(ref);
    return result ? { result, arriving: null, resultId: ref.hash } : null;
  };

  constructor(comps: ServiceComputations, local: ResultSource, log: FastifyBaseLogger) {
    this.#comps = comps;
    this.#local = local;
    this.#log = log;
  }

  #count(kind: CacheAccess, request: ComputeRequest): void {
    this.accessCounts[kind]++;
    logCacheAccess(this.#log, kind, request.roomId, request.entry.name, request.values);
  }

  /** A hit served from the room pointer; null on a miss (a pointer whose bytes are gone is dropped). */
  async #hit<T>(request: ComputeRequest, key: string, read: (ref: BlobRef) => Promise<T | null>): Promise<T | null> {
    const ref = await this.#comps.hit(request.roomId, key);
    if (!ref) return null;
    const result = await read(ref);
    if (result) this.#count('hit', request);
    else await this.#comps.forget(request.roomId);
    return result;
  }

  /** A hit, else the (joined) computation, its result read with `read`. */
  async #serve<T>(request: ComputeRequest, read: (ref: BlobRef) => Promise<T | null>): Promise<T> {
    const key = keyOf(request.entry, request.values);
    const hit = await this.#hit(request, key, read);
    if (hit) return hit;
    const signal = request.signal ? AbortSignal.any([request.signal, this.#closing.signal]) : this.#closing.signal;
    // Inputs are loaded and stored once, by the host taking the request; a retry reuses them.
    const inputs = await storeInputs(request, this.#comps.blobs, this.#comps.times.runTtlMs, signal);
    const claim: ClaimRequest = {
      fn: request.entry.name,
      ...pinnedBundle(request.entry),
      key,
      values: request.values,
      room: request.roomId,
      specimen: request.specimenId ?? null,
      jobId: request.job?.id ?? null,
      lane: laneOf(request.entry),
      ...(inputs ? { inputs } : {}),
      state: { ...roomStateOf(request) },
    };
    // A finished computation whose bytes this host cannot read (the blob store evicted them,
    // or refused them and only the computing host holds them) is a miss: compute once more.
    // An evicting blob store under pressure may drop a fresh result again before this host
    // reads it, so a few attempts are made before saying the store did not keep it.
    for (let attempt = 0; attempt < COMPUTE_ATTEMPTS; attempt++) {
      const { cid, created, holder } = await this.#comps.claim(claim);
      this.#count(created ? 'miss' : 'shared', request);
      const result = await read(await this.#comps.wait(cid, holder, signal, request.onProgress));
      if (result !== null) return result;
    }
    throw createHostError('SPC_ERR_REDIS_UNAVAILABLE', 'the blob store did not keep the result (it is full or evicting)');
  }

  /** A reader that follows arriving bytes gets a large result read cold from the blob store as its chunks arrive. */
  async open(request: ComputeRequest): Promise<OpenedResult> {
    if (!runsOnService(request.entry)) return this.#local.open(request);
    return request.followsArriving ? this.#serve(request, this.#open) : this.#serve(request, this.#readWhole);
  }

  async lookup(request: ComputeRequest): Promise<StoredResult | undefined> {
    if (!runsOnService(request.entry)) return this.#local.lookup(request);
    return (await this.#hit(request, keyOf(request.entry, request.values), this.#read)) ?? undefined;
  }

  async roomState(roomId: string): Promise<RoomState | null> {
    const [state, created] = await orUnavailable(this.#comps.redis.hmget(KEYS.room(roomId), 'state', 'created'));
    if (state) return { ...(JSON.parse(state) as RoomState), ...(created ? { since: Number(created) } : {}) };
    return this.#local.roomState(roomId);
  }

  async copyEntry(from: string, to: string): Promise<boolean> {
    const copied = Number(await orUnavailable(this.#comps.redis.vCopyRoom(from, to, Date.now(), this.#comps.times.cacheTtlMs)));
    if (copied === 1) {
      this.#comps.pointers.invalidate(to);
      return true;
    }
    // Functions registered in code keep their entries on this host.
    return this.#local.copyEntry(from, to);
  }

  async forgetEntry(roomId: string): Promise<void> {
    await Promise.all([this.#comps.forget(roomId), this.#local.forgetEntry(roomId)]);
  }

  async stats(): Promise<CacheStats> {
    const redis = this.#comps.redis;
    // This host's hits not yet written are counted too.
    await this.#comps.pointers.flush();
    const now = Date.now();
    const rooms = await orUnavailable(redis.zrangebyscore(KEYS.rooms, now, '+inf'));
    void redis.zremrangebyscore(KEYS.rooms, '-inf', now).catch(() => 0);
    const pipeline = redis.pipeline();
    for (const room of rooms) pipeline.hmget(KEYS.room(room), 'fn', 'created', 'hits');
    const replies = (await orUnavailable(pipeline.exec())) ?? [];
    const local = await this.#local.stats();
    const entries = [...local.entries];
    replies.forEach(([error, fields], i) => {
      const [fn, created, hits] = (fields ?? []) as (string | null)[];
      if (error || !fn || !created) return;
      entries.push({ ...statsRoom(rooms[i]!), function_name: fn, age_seconds: (now - Number(created)) / 1000, access_count: Number(hits ?? 0) });
    });
    return { ...local, total_entries: entries.length, entries };
  }

  async clear(): Promise<number> {
    const cleared = Number(await orUnavailable(this.#comps.redis.vClear()));
    this.#comps.pointers.dropAll();
    this.#comps.blobs.dropLocal();
    return cleared + (await this.#local.clear());
  }

  figures(): ResultFigures {
    return this.#local.figures();
  }

  abortAll(): void {
    this.#comps.pointers.close();
    this.#closing.abort();
    this.#local.abortAll();
  }
}
