/**
 * @module compute-node
 * A compute node of a Redis service (a `vitrine worker`, or a host with `--compute` above 0):
 * a BullMQ worker that takes computations from the queue and runs them on this process's
 * worker-thread pool. A relay host runs one more on the relay lane, whose invoker is the remote
 * invoker: it runs relayed functions on their workers (shared-relay.ts). Progress goes to the
 * computation's stream; the result's bytes go to the blob store and the computation's record
 * (room pointer, status) changes in one script (finish-run.ts).
 * Beside the lane's queue it takes the short lane's (computations expected to be short, so
 * they never wait behind long ones queued before them), and it writes how long each run took
 * for the hosts choosing that lane (run-records.ts). A DELETE anywhere reaches it as a
 * pub/sub cancel (and, should that message be lost, as the record's status, re-read every second): the run's signal aborts and the pooled invoker
 * terminates a thread that does not stop. A node killed mid-run stops renewing BullMQ's lock;
 * BullMQ's stalled-job check hands the computation to another node, whose progress continues
 * the same sequence. Plugins and encoding run off the main thread, so lock renewals never stall.
 */
import { DelayedError, Worker, type Job } from 'bullmq';
import { createHostError, isHostError, type HostError, type HostErrorCode } from '../errors.ts';
import type { Invoker } from '../invoke/invoker.ts';
import type { ResolvedHostOptions } from '../options.ts';
import { bundleOf, type FunctionEntry } from '../registry/function-entry.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { NodeDirectory, startHeartbeat } from './compute-nodes.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { RedisConnections } from '../redis/redis-connections.ts';
import { describeRedisFailure } from '../redis/redis-unavailable.ts';
import type { RedisEvents } from '../redis/redis-events.ts';
import { LANE_QUEUES, type ComputeTask } from './work-queue.ts';
import type { WorkLane } from '../serving/service-computations.ts';
import { readInputs } from '../serving/input-refs.ts';
import { RunRecords } from './run-records.ts';
import { SHORT_RUN_MS } from '../invoke/run-durations.ts';
import { StoreRetries } from './store-retries.ts';
import { finishRun } from './finish-run.ts';

/** BullMQ lock: renewed every half of it; a node silent for longer is taken as dead. */
const LOCK_MS = 10_000;
/** How often BullMQ looks for computations whose node died. */
const STALLED_CHECK_MS = 5_000;
/** How often running computations' records are re-read (a lost cancel message) and their functions' trials renewed. */
const RECHECK_MS = 1_000;
/** Longest a SIGTERM waits for running computations before handing them back. */
const DRAIN_MS = 30_000;
/** How long a computation this node cannot run waits, handed back, before a node takes it again. */
const HAND_BACK_MS = 200;

export interface ComputeNodeOptions {
  nodeId: string;
  connections: RedisConnections;
  events: RedisEvents;
  blobs: BlobStore;
  functions: FunctionRegistry;
  invoker: Invoker;
  /**
   * The queue it takes work from: `compute` (plugin functions, run on the pool) by default, or
   * `relay` (a relay host running its workers' functions through the remote invoker).
   */
  lane?: WorkLane;
  /** Function `name` as the version with bundle id `bundle` has it, for a pinned computation (none: only serving versions run). */
  pinned?: (name: string, bundle: string) => Promise<FunctionEntry | undefined>;
  /** Which functions it runs. @defaultValue its lane's kind: plugin functions, or relayed ones */
  runs?: (entry: FunctionEntry) => boolean;
  /** Computations run at once; the invoker's room scheduler shares threads across rooms. */
  concurrency: number;
  maxJobMessages: number;
  /** Most bytes of results kept while they wait for a blob store that is down. @defaultValue no bound */
  maxHeldBytes?: number;
  log: NodeLog;
}

/**
 * The compute node of a process's compute assembly, made the same way for a host lending
 * `--compute` threads and for a `vitrine worker`: twice as many computations taken at once as
 * threads lent (the room scheduler shares the threads between them).
 */
export function createComputeNode(
  compute: { functions: FunctionRegistry; plugins: Invoker },
  options: Pick<ResolvedHostOptions, 'compute' | 'maxJobMessages' | 'cacheMaxBytes'>,
  deps: Pick<ComputeNodeOptions, 'nodeId' | 'connections' | 'events' | 'blobs' | 'log' | 'pinned'>,
): ComputeNode {
  // Results waiting for a store that is down are held within the host's own byte budget.
  const { compute: threads, maxJobMessages, cacheMaxBytes } = options;
  const held = { maxJobMessages, maxHeldBytes: cacheMaxBytes };
  return new ComputeNode({ ...deps, ...held, functions: compute.functions, invoker: compute.plugins, concurrency: threads * 2 });
}

/** What a compute node logs through (a host's logger, or the worker command's). */
export interface NodeLog {
  info(message: string): void;
  warn(message: string): void;
}

export class ComputeNode {
  #o: ComputeNodeOptions;
  #workers: Worker<ComputeTask, void>[] = [];
  #records: RunRecords;
  #running = new Map<string, { controller: AbortController; fn: string; jobTtlMs: number }>();
  #stops: (() => void | Promise<void>)[] = [];
  #announce: () => Promise<void> = async () => {};
  #nodes: NodeDirectory;
  #stores: StoreRetries;

  #lane: WorkLane;

  constructor(options: ComputeNodeOptions) {
    this.#o = options;
    this.#stores = new StoreRetries(options.blobs, options.maxHeldBytes ?? Number.POSITIVE_INFINITY);
    this.#lane = options.lane ?? 'compute';
    this.#nodes = new NodeDirectory(options.connections.command);
    this.#records = new RunRecords(options.connections.command);
  }

  /** Whether this node runs `entry`. */
  #runs(entry: FunctionEntry | undefined): entry is FunctionEntry {
    if (!entry) return false;
    return this.#o.runs ? this.#o.runs(entry) : entry.source.kind === (this.#lane === 'relay' ? 'remote' : 'bundle');
  }

  /**
   * The function to run for a task: the version this node serves, unless the task names another
   * version's bundle id (a layer pinned to an older version, or a host that serves another one),
   * taken then from the versions the node keeps or the service shares. Undefined when the node
   * has no such function; a version no longer to be had is the error the asking host answers
   * with, naming it.
   */
  async #taskEntry(fn: string, bundle: string | undefined): Promise<FunctionEntry | HostError | undefined> {
    const serving = this.#o.functions.get(fn);
    if (!bundle || (serving && bundleOf(serving)?.bundle === bundle)) return serving;
    const pinned = await this.#o.pinned?.(fn, bundle).catch(() => undefined);
    return pinned ?? createHostError('SPC_ERR_PLUGIN_VERSION_GONE', serving?.plugin ?? fn, bundle.slice(0, 12));
  }

  get running(): number {
    return this.#running.size;
  }

  /** Starts taking work; resolves once the worker is connected. */
  async start(): Promise<void> {
    const o = this.#o;
    const queues = this.#lane === 'compute' ? [LANE_QUEUES.compute, LANE_QUEUES.short] : [LANE_QUEUES[this.#lane]];
    this.#workers = queues.map((queue) => this.#takeFrom(queue));
    this.#stops.push(o.events.onCancel((cid) => this.#running.get(cid)?.controller.abort()));
    await Promise.all(this.#workers.map((worker) => worker.waitUntilReady()));
    const heartbeat = await startHeartbeat(o.connections.command, o.nodeId, () => o.functions.list().filter((e) => this.#runs(e)).map((e) => e.name));
    this.#stops.push(() => heartbeat.stop());
    this.#announce = () => heartbeat.beat();
    const recheck = setInterval(() => void this.#recheck(), RECHECK_MS).unref();
    this.#stops.push(() => clearInterval(recheck));
  }

  /** A BullMQ worker taking computations from `queue`. */
  #takeFrom(queue: string): Worker<ComputeTask, void> {
    const o = this.#o;
    const worker = new Worker<ComputeTask, void>(queue, (job, token, signal) => this.#process(job, token, signal), {
      connection: o.connections.forBullmq(true), concurrency: o.concurrency, lockDuration: LOCK_MS, stalledInterval: STALLED_CHECK_MS, maxStalledCount: 2,
    });
    // In the service's words: the queue's client library speaks of streams and offline queues.
    worker.on('error', (error) => o.log.warn(`compute node ${o.nodeId}: ${describeRedisFailure(error)}`));
    // Out of attempts at storing a result: end the computation so its waiters are not left waiting.
    worker.on('failed', (job, error) => {
      if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
      void o.connections.command
        .vFail(job.data.cid, `the result could not be stored: ${describeRedisFailure(error)}`, 'SPC_ERR_REDIS_UNAVAILABLE', job.data.jobTtlMs)
        .catch(() => {});
    });
    return worker;
  }

  /** Tells the service at once which functions this node runs (after a plugin reload). */
  announce(): Promise<void> {
    return this.#announce();
  }

  async #recheck(): Promise<void> {
    const cids = [...this.#running.keys()];
    if (cids.length === 0) return;
    // A trial of an untimed function lasts while its runs do (run-records.ts).
    void this.#records.holdTrials([...this.#running.values()].map((run) => run.fn)).catch(() => {});
    const pipeline = this.#o.connections.command.pipeline();
    for (const cid of cids) pipeline.hget(KEYS.comp(cid), 'status');
    const replies = await pipeline.exec().catch(() => null);
    replies?.forEach(([error, status], i) => {
      if (!error && status !== 'running') this.#running.get(cids[i]!)?.controller.abort();
    });
  }

  async #process(job: Job<ComputeTask, void>, token: string | undefined, bullSignal?: AbortSignal): Promise<void> {
    const o = this.#o;
    const redis = o.connections.command;
    const { cid, fn, bundle, values, room, specimen, inputs, jobTtlMs, timeoutMs } = job.data;
    const jobId = job.data.job;
    if ((await redis.hget(KEYS.comp(cid), 'status')) !== 'running') return;
    const entry = await this.#taskEntry(fn, bundle);
    if (isHostError(entry)) {
      await redis.vFail(cid, entry.message, entry.code, jobTtlMs);
      return;
    }
    if (!this.#runs(entry)) {
      // Nodes share one queue: a computation another live node can run is handed back for it.
      if (token && (await this.#nodes.canRun(fn).catch(() => false))) {
        await job.moveToDelayed(Date.now() + HAND_BACK_MS, token);
        throw new DelayedError();
      }
      await redis.vFail(cid, `function '${fn}' is not loaded on compute node ${o.nodeId}`, 'SPC_ERR_FUNCTION_NOT_FOUND', jobTtlMs);
      return;
    }
    const controller = new AbortController();
    this.#running.set(cid, { controller, fn, jobTtlMs });
    bullSignal?.addEventListener('abort', () => controller.abort(), { once: true });
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs).unref();
    let result: StoredResult;
    let started = performance.now();
    let ran: number | undefined;
    // How long the function ran (as its thread measured it, if it did), for the short lane: a
    // cancelled run teaches only when it was long.
    const timeRun = (completed: boolean) => {
      const ms = ran ?? performance.now() - started;
      if (completed || ms >= SHORT_RUN_MS) void this.#records.record(fn, ms).catch(() => {});
    };
    try {
      const loaded = inputs ? await readInputs(values, inputs, o.blobs) : values;
      started = performance.now();
      result = await o.invoker.invoke(entry, loaded, {
        signal: controller.signal, roomId: room, ...(jobId ? { job: { id: jobId, specimenId: specimen } } : {}),
        onProgress: (u) => void redis.vProgress(cid, u.text, u.ts, u.fraction ?? '', o.maxJobMessages).catch(() => {}),
        onRunning: () => void (started = performance.now()),
        onRan: (ms) => void (ran = ms),
      });
      timeRun(true);
    } catch (error) {
      timeRun(!controller.signal.aborted);
      if (timedOut) await redis.vFail(cid, `timed out after ${timeoutMs / 1000} s`, 'SPC_ERR_JOB_FAILED', jobTtlMs);
      else if (!controller.signal.aborted) {
        const code = isHostError(error) ? error.code : 'SPC_ERR_FUNCTION_FAILED';
        await redis.vFail(cid, error instanceof Error ? error.message : String(error), code, jobTtlMs);
      }
      // Cancelled: the record already says so (whoever cancelled ended it). A function's own
      // failure or a cancel is recorded and never retried.
      return;
    } finally {
      clearTimeout(timeout);
      this.#running.delete(cid);
    }
    const node = { nodeId: o.nodeId, redis, blobs: o.blobs, stores: this.#stores, log: o.log };
    await finishRun(node, job.data, entry, result);
  }

  /**
   * Ends the running computations whose function matches as errors with `message` and `code`
   * (a relay's worker left), and stops their runs; resolves once the ends are recorded.
   */
  async failWhere(matches: (fn: string) => boolean, message: string, code: HostErrorCode): Promise<number> {
    const ended = [...this.#running].filter(([, run]) => matches(run.fn));
    // Aborted first, so the runs' own failure is not what gets recorded.
    for (const [, run] of ended) run.controller.abort();
    const redis = this.#o.connections.command;
    await Promise.all(ended.map(([cid, run]) => redis.vFail(cid, message, code, run.jobTtlMs).catch(() => 0)));
    return ended.length;
  }

  /**
   * Stops taking work. Running computations finish (up to 30 s); past that, or when `force`,
   * they are handed back: BullMQ gives them to another node once their lock lapses.
   */
  async close(force = false): Promise<void> {
    const workers = this.#workers.splice(0);
    await Promise.all(
      workers.map(async (worker) => {
        const drained = worker.close(force);
        const timer = setTimeout(() => void worker.close(true), force ? 0 : DRAIN_MS);
        await drained.catch(() => {});
        clearTimeout(timer);
      }),
    );
    for (const stop of this.#stops.splice(0)) await stop();
  }
}
