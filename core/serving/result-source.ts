/**
 * @module result-source
 * The one interface the routes take results through: cache-first computation, room state and
 * the cache statistics. Two implementations beside it: the in-memory ResultService (one host)
 * and RedisResults (every host of a service shares rooms, single flights and results, through
 * the service's computations: service-computations.ts); both run the results conformance cases.
 * Both publish room events on the host's EventHub channel `room:{id}` (roomChannel, events/channels.ts). The
 * words both speak live here too: what a computation is asked with (ComputeRequest), what
 * opening one gives (OpenedResult), the room cache key (keyOf), what a room shows
 * (roomStateOf; its shape is cache/room-state.ts) and the log line of a cache access.
 */
import type { RoomFailed } from '../wire/scene-types.ts';
import type { CacheStats } from '../wire/wire-types.ts';
import { isHostError } from '../errors.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { HostEvent } from '../events/event-hub.ts';
import { slotOwner } from '../events/layer-slots.ts';
import type { InputLoaders } from '../inputs/input-types.ts';
import type { JobRef, ProgressUpdate } from '../invoke/invoker.ts';
import type { ArrivingResult } from '../results/payload-fill.ts';
import { cacheKey } from '../params/params-hash.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { RoomState } from '../cache/room-state.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** Room-cache figures for metrics, read without waiting. */
export interface ResultFigures {
  entries: number;
  bytes: number;
  maxBytes: number | null;
}

export interface ResultSource {
  /**
   * The one way to a result: a cached one, or the result of a (possibly shared) computation
   * that is then cached. Resolves once every byte is in, unless the request says its reader
   * can follow bytes still arriving (`followsArriving`); see computeResult for the whole one.
   */
  open(request: ComputeRequest): Promise<OpenedResult>;
  /**
   * The room's entry for this request when it is one, answered at once with no promise on the
   * way (counted and logged as `open` counts a hit); undefined when it is not, and then `open`
   * is asked. Only a source that holds its cache in this process has it: most requests of a
   * busy room are hits, and a hit then costs no timer, signal or promise.
   */
  openNow?(request: ComputeRequest): OpenedResult | undefined;
  /** The cached result for these values in this room (counted as a hit); else undefined. */
  lookup(request: ComputeRequest): Promise<StoredResult | undefined>;
  /** The room's current entry, or null. */
  roomState(roomId: string): Promise<RoomState | null>;
  /**
   * Makes room `from`'s entry room `to`'s too (the same result, nothing computed) and tells
   * `to`'s streams; false when `from` holds none. How a scene's active layer moves between the
   * room's own cache slot and its layer's (events/layer-slots.ts).
   */
  copyEntry(from: string, to: string): Promise<boolean>;
  /** Drops the room's entry (a removed layer's slot): the next request computes. */
  forgetEntry(roomId: string): Promise<void>;
  stats(): Promise<CacheStats>;
  /** Drops every room entry; returns how many there were. */
  clear(): Promise<number>;
  /** Room-cache lookups since start: hits, misses, and misses that joined a running computation. */
  readonly accessCounts: { hit: number; miss: number; shared: number };
  figures(): ResultFigures;
  /** Cancels every computation this host waits on (shutdown). */
  abortAll(): void;
}

export type CacheAccess = 'hit' | 'miss' | 'shared';

/**
 * The INFO line of a room-cache access: room (and layer, for a layer's cache slot, whose id is
 * padded with NULs no reader wants to see), function and parameter names.
 */
export function logCacheAccess(log: FastifyBaseLogger, kind: CacheAccess, roomId: string, functionName: string, values: Record<string, unknown>): void {
  // Every hit comes here: the line is not even made when INFO is off (the usual level).
  if ((log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') === false) return;
  const owner = slotOwner(roomId);
  const where = owner ? { room: owner.room, layer: owner.layer } : { room: roomId };
  log.info(
    { cache: kind, ...where, function: functionName, params: Object.keys(values) },
    `cache ${kind}: room=${where.room}${owner ? ` layer=${owner.layer}` : ''} function=${functionName} params=[${Object.keys(values).join(',')}]`,
  );
}

/**
 * The room cache key: function name and parameter hash, plus the bundle's version, so a
 * plugin reloaded while an old computation runs never serves or shares that old result.
 */
export function keyOf(entry: FunctionEntry, values: Record<string, unknown>): string {
  const key = cacheKey(entry.name, values);
  return entry.source.kind === 'bundle' ? `${key}@${entry.source.bundle ?? entry.source.version}` : key;
}

/**
 * What `open` resolves with: the result, and for one whose bytes are still arriving, how to
 * wait for them (`arriving`); null when every byte is already in memory.
 */
export interface OpenedResult {
  result: StoredResult;
  arriving: ArrivingResult | null;
  /** The result's id when the source already knew it (a room entry's); absent otherwise. */
  resultId?: string;
}

/** The whole result of `request` (a reader that cannot follow bytes still arriving). */
export async function computeResult(source: Pick<ResultSource, 'open'>, request: ComputeRequest): Promise<StoredResult> {
  if (!request.followsArriving) return (await source.open(request)).result;
  const { followsArriving: _follows, ...whole } = request;
  return (await source.open(whole)).result;
}

export interface ComputeRequest {
  entry: FunctionEntry;
  values: Record<string, unknown>;
  roomId: string;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** The job asking, if any (passed to the invoker of a computation it starts). */
  job?: JobRef;
  /**
   * True when the reader can send bytes as they arrive: `open` may then resolve before a
   * relayed (or cold-read) result's bytes are all in, with `arriving` saying how to follow them.
   */
  followsArriving?: boolean;
  /** The specimen asked for, if any (room events name it). */
  specimenId?: string | null;
  /** Computed as another computation's input: not something the room was asked for (room-asks.ts). */
  asInput?: boolean;
  /** A follower reading what the room shows (the follower header): its hit is not an ask (room-asks.ts). */
  echo?: boolean;
  /**
   * Loaders of the input parameters in `values` (core/inputs/): run just before the function,
   * in the same room, and only on a miss (`values` already covers each input's own key).
   */
  inputs?: InputLoaders;
}

/** Publishes a room event (`computing`, `result`) for the room's subscribers. */
export type RoomEventSink = (roomId: string, event: HostEvent) => void;

/** The `failed` event of `request`'s computation, ended by `error` (cancellation included). */
export function roomFailedOf(request: ComputeRequest, error: unknown): RoomFailed {
  const code = isHostError(error) ? error.code : 'SPC_ERR_FUNCTION_FAILED';
  const detail = error instanceof Error ? error.message : String(error);
  return { function_name: request.entry.name, specimen_id: request.specimenId ?? null, params: request.values, job_id: request.job?.id ?? null, code, detail };
}

/** What a room shows once `request`'s result is its entry. */
export function roomStateOf(request: ComputeRequest): RoomState {
  return { function_name: request.entry.name, specimen_id: request.specimenId ?? null, params: request.values, type: request.entry.return_type };
}
