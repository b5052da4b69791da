/**
 * @module computations
 * A host's view of the service's computations: the room-pointer hit, the single-flight claim
 * that makes identical requests anywhere share one computation, queueing it for a compute
 * node, and waiting for its end. Waiting is woken by pub/sub nudges and re-reads the durable
 * record every second besides, since pub/sub may lose a message; a Redis failure while
 * waiting ends the wait with 503 rather than hanging.
 */
import { randomUUID } from 'node:crypto';
import { createHostError, HostError, type HostErrorCode, ERRORS } from '../errors.ts';
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { BlobRef, BlobStore, OpenedBlob } from '../blobs/blob-store.ts';
import type { NodeDirectory } from './compute-nodes.ts';
import { KEYS, CHANNELS } from '../redis/redis-keys.ts';
import { roomEventMessage, type RedisEvents } from '../redis/redis-events.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { ClaimRequest, Claimed, ComputationTimes, ServiceComputations } from '../serving/service-computations.ts';
import type { WorkQueue } from './work-queue.ts';
import { heldPointer, RoomPointers, type PointerRead } from './room-pointers.ts';
import type { ReadValue } from '../redis/held-by-room.ts';
import { RunRecords } from './run-records.ts';

/** How often a waiter re-reads a computation it was not nudged about. */
const RECHECK_MS = 1000;

/** A progress message as a computation's log holds it (`t`, `ts`, `f` fields). */
function toProgressUpdate(fields: string[]): ProgressUpdate {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  return { text: f.t ?? '', ts: Number(f.ts), fraction: f.f === undefined ? null : Number(f.f) };
}

/** A failed computation's error as the host reports it (its catalogued code kept across processes). */
export function computationError(code: string, message: string): HostError {
  const known = Object.hasOwn(ERRORS, code) ? (code as HostErrorCode) : 'SPC_ERR_FUNCTION_FAILED';
  return code === 'SPC_ERR_JOB_CANCELLED' ? createHostError('SPC_ERR_JOB_CANCELLED') : new HostError(known, message);
}

export class Computations implements ServiceComputations {
  readonly redis: ScriptedRedis;
  readonly blobs: BlobStore;
  readonly times: ComputationTimes;
  readonly events: RedisEvents;
  #queue: WorkQueue;
  #nodes: NodeDirectory;
  /** How long functions' runs took service-wide: short ones go by the queue's short lane. */
  #runs: RunRecords;
  #hostId: string;
  readonly pointers: RoomPointers;

  constructor(deps: {
    redis: ScriptedRedis;
    events: RedisEvents;
    blobs: BlobStore;
    queue: WorkQueue;
    nodes: NodeDirectory;
    times: ComputationTimes;
    hostId: string;
  }) {
    this.#hostId = deps.hostId;
    this.redis = deps.redis;
    this.blobs = deps.blobs;
    this.times = deps.times;
    this.events = deps.events;
    this.#queue = deps.queue;
    this.#nodes = deps.nodes;
    this.#runs = new RunRecords(deps.redis);
    const redis = deps.redis;
    const news = {
      listening: () => deps.events.listening,
      onChange: (listener: (room: string) => void) => deps.events.onPointerChange(listener),
      onResubscribed: (listener: () => void) => deps.events.onResubscribed(listener),
    };
    this.pointers = new RoomPointers(news, async (counts) => void (await redis.vCountHits(...[...counts].flatMap(([room, { key, n }]) => [room, key, n]))));
  }

  /** The room's entry for `key` (its blob), or null: from the pointers held, else one Redis command. */
  hit(room: string, key: string): Promise<BlobRef | null> {
    return this.pointers.hit(room, key, this.#readPointer);
  }

  /** The room's pointer as Redis has it (made once: a hit passes it, it makes no closure). */
  readonly #readPointer = async (room: string): Promise<ReadValue<PointerRead | null>> => {
    const reply = (await orUnavailable(this.redis.vPointer(KEYS.room(room)))) as [string, string, string, number] | null;
    return heldPointer(reply ? ({ key: reply[0], ref: { hash: reply[1], meta: reply[2] }, ttlMs: reply[3] } satisfies PointerRead) : null);
  };

  /** The result a blob holds; null when its bytes are gone. */
  read(ref: BlobRef): Promise<StoredResult | null> {
    return orUnavailable(this.blobs.get(ref));
  }

  /** The blob's result to send at once (its bytes perhaps still arriving); null when they are gone. */
  open(ref: BlobRef): Promise<OpenedBlob | null> {
    return orUnavailable(this.blobs.open(ref));
  }

  /** Drops a room pointer whose result is gone, so the next request computes. */
  async forget(room: string): Promise<void> {
    this.pointers.invalidate(room);
    await orUnavailable(this.redis.vForget(room));
  }

  /**
   * Joins or starts the computation of `request`; a new one is queued for a compute node and
   * announced to the room. 503 when no live node can run the function. `holder` is who the
   * claim counts as waiting (a job, or this host): pass it to {@link wait}.
   */
  async claim(request: ClaimRequest): Promise<Claimed> {
    const claimed = await this.reserve(request);
    if (claimed.created) await this.queue(claimed.cid, request);
    return claimed;
  }

  /**
   * The claim without the queueing: a new computation is recorded as running (its waiters and
   * jobs follow it from now on) and the caller queues it with {@link queue} once it is ready,
   * or ends it with {@link fail}.
   */
  async reserve(request: ClaimRequest): Promise<Claimed> {
    if (!(await orUnavailable(this.#nodes.willRun(request.fn)))) throw createHostError('SPC_ERR_NO_COMPUTE_NODE', request.fn);
    const holder = request.jobId ? '' : this.#hostId;
    const [cid, created] = (await orUnavailable(
      this.redis.vClaim(
        KEYS.flight(request.room, request.key),
        randomUUID(),
        this.times.runTtlMs,
        request.fn,
        request.room,
        Date.now(),
        request.jobId ?? '',
        request.specimen ?? '',
        request.key,
        this.#hostId,
      ),
    )) as [string, number];
    return { cid, created: created === 1, holder };
  }

  /** Queues reserved computation `cid` for a compute node and announces it to the room. */
  async queue(cid: string, request: ClaimRequest): Promise<void> {
    try {
      const { cacheTtlMs, jobTtlMs, timeoutMs } = this.times;
      const task = {
        cid,
        fn: request.fn,
        ...(request.bundle ? { bundle: request.bundle } : {}),
        values: request.values,
        room: request.room,
        specimen: request.specimen,
        ...(request.jobId ? { job: request.jobId } : {}),
        ...(request.inputs ? { inputs: request.inputs } : {}),
        cacheTtlMs,
        jobTtlMs,
        timeoutMs,
      };
      const short = request.lane === 'compute' && (await orUnavailable(this.#runs.isShort(request.fn)));
      await orUnavailable(this.#queue.add(task, request.lane, short));
    } catch (error) {
      await this.fail(cid, 'the computation could not be queued', 'SPC_ERR_REDIS_UNAVAILABLE');
      throw error;
    }
    const data = { ...request.state, job_id: request.jobId };
    await this.redis.publish(CHANNELS.room, roomEventMessage(request.room, 'computing', data)).catch(() => {});
  }

  /** Ends running computation `cid` with an error its waiters and jobs report (no-op once it ended). */
  async fail(cid: string, message: string, code: HostErrorCode): Promise<void> {
    await this.redis.vFail(cid, message, code, this.times.jobTtlMs).catch(() => {});
  }

  /** A waiter leaves; the last live one leaving cancels the computation wherever it runs. */
  async release(cid: string, holder: string): Promise<void> {
    const cancelled = await this.redis.vRelease(cid, this.times.jobTtlMs, holder).catch(() => 0);
    if (cancelled === 1) await this.#queue.remove(cid);
  }

  /** Cancels job `id`; false when unknown. */
  async cancelJob(id: string): Promise<boolean> {
    return (await orUnavailable(this.redis.vCancelJob(id, this.times.jobTtlMs))) === 1;
  }

  /**
   * Ends a running computation that no live node can run any more (the last one left after it
   * was queued, or died running it), so its waiters get the 503 instead of waiting for ever.
   */
  async abandonIfNoNode(cid: string, fn: string): Promise<boolean> {
    // Heartbeats missed while Redis was away prove nothing: a node that ran through the outage
    // beats again within a period, and its computation goes on.
    if (!this.#nodes.settled() || (await orUnavailable(this.#nodes.canRun(fn)))) return false;
    const ended = await orUnavailable(
      this.redis.vFail(cid, createHostError('SPC_ERR_NO_COMPUTE_NODE', fn).message, 'SPC_ERR_NO_COMPUTE_NODE', this.times.jobTtlMs),
    );
    if (ended === 1) await this.#queue.remove(cid);
    return true;
  }

  /**
   * Resolves with the finished computation's blob; rejects with its error, 503, or cancelled on
   * abort. With `onProgress`, the computation's progress messages are passed on as they come
   * (an input computed on a compute node reports into the job that needs it).
   */
  wait(cid: string, holder: string, signal?: AbortSignal, onProgress?: (update: ProgressUpdate) => void): Promise<BlobRef> {
    if (signal?.aborted) {
      void this.release(cid, holder);
      return Promise.reject(createHostError('SPC_ERR_JOB_CANCELLED'));
    }
    return new Promise<BlobRef>((resolve, reject) => {
      let settled = false;
      let reading = false;
      let nextSeq = 0;
      // Messages read after the status: once it says ended, every message is in the log.
      const passOn = async () => {
        if (!onProgress) return;
        const entries = await orUnavailable(this.redis.xrange(KEYS.log(cid), `${nextSeq}-0`, '+'));
        for (const [id, fields] of entries) {
          nextSeq = Number(id.split('-')[0]) + 1;
          if (!settled) onProgress(toProgressUpdate(fields));
        }
      };
      let again = false;
      const finish = (error: Error | null, ref?: BlobRef) => {
        if (settled) return;
        settled = true;
        unwatch();
        clearInterval(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(ref!);
      };
      const check = async () => {
        if (reading) return void (again = true);
        reading = true;
        try {
          do {
            again = false;
            const [status, error, code, hash, meta, fn] = await orUnavailable(
              this.redis.hmget(KEYS.comp(cid), 'status', 'error', 'code', 'hash', 'meta', 'fn'),
            );
            await passOn();
            if (status === 'done' && hash && meta) return finish(null, { hash, meta });
            if (status === 'error') return finish(computationError(code ?? '', error ?? 'failed'));
            if (status === null) return finish(createHostError('SPC_ERR_JOB_FAILED', cid, 'the computation was lost (its record expired)'));
            if (fn && (await this.abandonIfNoNode(cid, fn))) again = true;
          } while (again && !settled);
        } catch (error) {
          // Nobody waits here any more (the request answers 503): say so, if Redis lets us.
          if (!settled) void this.release(cid, holder);
          finish(error as Error);
        } finally {
          reading = false;
        }
      };
      const onAbort = () => {
        finish(createHostError('SPC_ERR_JOB_CANCELLED'));
        void this.release(cid, holder);
      };
      const unwatch = this.events.watch(cid, () => void check());
      const timer = setInterval(() => void check(), RECHECK_MS).unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      void check();
    });
  }
}
