/**
 * @module result-source
 * The one interface the routes take results through: cache-first computation, room state and
 * the cache statistics. Two implementations: the in-memory ResultService (one host) and the
 * Redis one (core/scale/, every host of a service shares rooms, single flights and results).
 * Both publish room events on the host's EventHub channel `room:{id}` (roomChannel).
 */
import type { CacheStats } from '../client/wire-types.ts';
import type { ComputeRequest, OpenedResult } from '../invoke/result-service.ts';
import type { StoredResult } from './stored-result.ts';

/** What a room shows: the entry its cache holds (the `state` and `result` events' data). */
export interface RoomState {
  function_name: string;
  /** The specimen the entry was computed for; null when it came from /invoke. */
  specimen_id: string | null;
  /** Parameter values with defaults filled. */
  params: Record<string, unknown>;
  type: string;
  /** The content hash of the entry's result (results/result-id.ts), once the entry holds one. */
  result_id?: string;
}

/** The EventHub channel of one room's `computing` and `result` events. */
export function roomChannel(roomId: string): string {
  return `room:${roomId}`;
}

/** Room-cache figures for metrics, read without waiting. */
export interface ResultFigures {
  entries: number;
  bytes: number;
  maxBytes: number | null;
}

export interface ResultSource {
  /** A cached result, or the result of a (possibly shared) computation that is then cached. */
  compute(request: ComputeRequest): Promise<StoredResult>;
  /** Like compute, but may resolve before a relayed result's bytes are all in. */
  open(request: ComputeRequest): Promise<OpenedResult>;
  /** The cached result for these values in this room (counted as a hit); else undefined. */
  lookup(request: ComputeRequest): Promise<StoredResult | undefined>;
  /** The room's current entry, or null. */
  roomState(roomId: string): Promise<RoomState | null>;
  stats(): Promise<CacheStats>;
  /** Drops every room entry; returns how many there were. */
  clear(): Promise<number>;
  /** Room-cache lookups since start: hits, misses, and misses that joined a running computation. */
  readonly accessCounts: { hit: number; miss: number; shared: number };
  figures(): ResultFigures;
  /** Cancels every computation this host waits on (shutdown). */
  abortAll(): void;
}
