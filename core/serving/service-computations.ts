/**
 * @module service-computations
 * The service's computations as a Redis service's results and jobs use them: the port that
 * lets `RedisResults` (here, beside `ResultService`) and `RedisJobs` (in jobs/, beside
 * `LocalJobs`) sit beside their interfaces, while what answers it (the single-flight claim,
 * the work queue and the compute nodes: scale/computations.ts) sits above them. It also says
 * which functions the service runs and in which lane, since both halves decide that per request.
 */
import type { HostErrorCode } from '../errors.ts';
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { BlobRef, BlobStore, OpenedBlob } from '../blobs/blob-store.ts';
import type { RedisEvents } from '../redis/redis-events.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** Which queue a computation goes to: plugin functions, or a relay's workers' functions. */
export type WorkLane = 'compute' | 'relay';

/**
 * Whether the service runs `entry` (a plugin function on a compute node, or a relayed
 * function through its relay host); a function registered in code runs on the host itself.
 */
export function runsOnService(entry: FunctionEntry): boolean {
  return entry.source.kind === 'bundle' || entry.source.kind === 'remote';
}

export function laneOf(entry: FunctionEntry): WorkLane {
  return entry.source.kind === 'remote' ? 'relay' : 'compute';
}

export interface ComputationTimes {
  cacheTtlMs: number;
  jobTtlMs: number;
  /** Longest a computation may run (the job timeout). */
  timeoutMs: number;
  /** How long a running computation's record lives: its run, then its time-to-live. */
  runTtlMs: number;
}

/** What a claim asks for. */
export interface ClaimRequest {
  fn: string;
  key: string;
  values: Record<string, unknown>;
  room: string;
  specimen: string | null;
  jobId: string | null;
  /** The bundle id of the plugin version that computes it (a compute node serving another takes this one). */
  bundle?: string;
  /** The queue a new computation goes to. */
  lane: WorkLane;
  /** Input parameters already stored (input-refs.ts). */
  inputs?: Record<string, BlobRef>;
  /** The room state the `computing` event carries. */
  state: Record<string, unknown>;
}

/** A claimed computation: its id, whether this claim made it, and this waiter's hold on it. */
export interface Claimed {
  cid: string;
  created: boolean;
  holder: string;
}

/** The room pointers this host holds: hits not yet counted in Redis, and pointers it may drop. */
export interface HeldPointers {
  /** Writes the hits counted here and not yet in Redis. */
  flush(): Promise<void>;
  /** Drops the pointer held for `room` (its entry changed). */
  invalidate(room: string): void;
  dropAll(): void;
  close(): void;
}

export interface ServiceComputations {
  /** The request path's connection, with the service's scripts. */
  readonly redis: ScriptedRedis;
  readonly blobs: BlobStore;
  readonly events: RedisEvents;
  readonly times: ComputationTimes;
  readonly pointers: HeldPointers;
  /** The room's entry for this cache key, or null on a miss. */
  hit(room: string, key: string): Promise<BlobRef | null>;
  /** The result, or null when its bytes are gone. */
  read(ref: BlobRef): Promise<StoredResult | null>;
  /** The result for sending at once (its bytes maybe still arriving), or null when gone. */
  open(ref: BlobRef): Promise<OpenedBlob | null>;
  /** Drops the room's entry (its bytes are gone). */
  forget(room: string): Promise<void>;
  /** Joins the running computation of these values in this room, or starts and queues one. */
  claim(request: ClaimRequest): Promise<Claimed>;
  /** As `claim`, but a new computation is only reserved: `queue` sends it once its inputs are stored. */
  reserve(request: ClaimRequest): Promise<Claimed>;
  queue(cid: string, request: ClaimRequest): Promise<void>;
  /** Ends computation `cid` with an error. */
  fail(cid: string, message: string, code: HostErrorCode): Promise<void>;
  /** The computation's result once it ends (rejects with its error); `signal` lets go of it. */
  wait(cid: string, holder: string, signal?: AbortSignal, onProgress?: (update: ProgressUpdate) => void): Promise<BlobRef>;
  /** Cancels job `id` (and its computation when no one else follows it); false when unknown. */
  cancelJob(id: string): Promise<boolean>;
  /** Ends running computation `cid` when no live node can run `fn` any more; true if it did. */
  abandonIfNoNode(cid: string, fn: string): Promise<boolean>;
}
