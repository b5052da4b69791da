/**
 * @module work-queue
 * The BullMQ queues computations travel through: one lane for plugin functions (taken by every
 * compute node), a lane of its own for those expected to be short (also taken by every compute
 * node, beside the first: a short computation never waits behind long ones queued before it,
 * run-records.ts says which are short) and one for relayed functions (taken by relay hosts,
 * which hold the workers' sockets), so a node never takes work it would only hand back. A task names its computation
 * and what to run, never its result: a result's bytes go to the blob store, and the task's
 * return value stays empty (BullMQ would serialise typed arrays as number lists and keep them
 * in its event stream). Finished tasks are removed at once; the computation record in Redis
 * is what jobs and rooms read.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ClaimRequest, ComputationTimes, WorkLane } from '../serving/service-computations.ts';
import { COMMAND_TIMEOUT_MS } from '../redis/redis-connections.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { withTimeLimit } from '../redis/time-limit.ts';

/** BullMQ waits for a connection without limit: its calls get the command timeout too. */
const bounded = <T>(work: Promise<T>, what: string): Promise<T> => withTimeLimit(work, COMMAND_TIMEOUT_MS, what);

/** The queues: each lane's, and the short lane beside the compute one. */
type QueueName = WorkLane | 'short';

/** The queue name of each lane. */
export const LANE_QUEUES: Record<QueueName, string> = { compute: KEYS.queue, short: KEYS.shortQueue, relay: KEYS.relayQueue };

/**
 * What a compute node needs to run one computation: what its claim asked for (the input
 * parameters stored in the blob store by the asking host), and that host's times (ms).
 */
export interface ComputeTask
  extends Pick<ClaimRequest, 'fn' | 'bundle' | 'values' | 'room' | 'specimen' | 'inputs'>,
    Pick<ComputationTimes, 'cacheTtlMs' | 'jobTtlMs' | 'timeoutMs'> {
  cid: string;
  /** The job that started the computation, if one did (a relayed run's worker keeps it under that id). */
  job?: string;
}

export class WorkQueue {
  readonly #queues: Record<QueueName, Queue<ComputeTask, void>>;

  constructor(connection: Redis) {
    const open = (name: string) => {
      const queue = new Queue<ComputeTask, void>(name, { connection });
      queue.on('error', () => {});
      return queue;
    };
    this.#queues = { compute: open(LANE_QUEUES.compute), short: open(LANE_QUEUES.short), relay: open(LANE_QUEUES.relay) };
  }

  /**
   * Queues `task` on `lane` under its computation id (adding the same id twice queues it once);
   * `short`: a plugin function's computation expected to be short goes by the short lane.
   */
  async add(task: ComputeTask, lane: WorkLane = 'compute', short = false): Promise<void> {
    // Retried only when storing the result failed (Redis away): a function's own failure and a
    // cancel are recorded by the node and end the task normally.
    const options = { jobId: task.cid, removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: { type: 'exponential', delay: 1000 } };
    const queue = lane === 'compute' && short ? this.#queues.short : this.#queues[lane];
    await bounded(queue.add('compute', task, options), 'queueing a computation');
  }

  /** Queued and running computations, service-wide. */
  async pending(): Promise<number> {
    const counts = await Promise.all(
      Object.values(this.#queues).map((queue) => bounded(queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized'), 'counting queued computations')),
    );
    return counts.flatMap((c) => Object.values(c)).reduce((a, b) => a + b, 0);
  }

  /** Takes a queued computation off the queue (it was cancelled before any node took it). */
  async remove(cid: string): Promise<void> {
    await Promise.all(Object.values(this.#queues).map((queue) => bounded(queue.remove(cid), 'removing a computation').catch(() => 0)));
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.#queues).map((queue) => queue.close()));
  }
}
