/**
 * @module work-queue
 * The BullMQ queue computations travel through. A task names its computation and what to
 * run, never its result: a result's bytes go to the blob store, and the task's return value
 * stays empty (BullMQ would serialise typed arrays as number lists and keep them in its
 * event stream). Finished tasks are removed at once; the computation record in Redis is what
 * jobs and rooms read.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { COMMAND_TIMEOUT_MS } from './redis-connections.ts';
import type { BlobRef } from './blob-store.ts';
import { KEYS } from './redis-keys.ts';
import { withTimeLimit } from './time-limit.ts';

/** BullMQ waits for a connection without limit: its calls get the command timeout too. */
const bounded = <T>(work: Promise<T>, what: string): Promise<T> => withTimeLimit(work, COMMAND_TIMEOUT_MS, what);

/** What a compute node needs to run one computation. */
export interface ComputeTask {
  cid: string;
  fn: string;
  values: Record<string, unknown>;
  room: string;
  specimen: string | null;
  /** Input parameters, loaded by the asking host and stored in the blob store (input-refs.ts). */
  inputs?: Record<string, BlobRef>;
  /** The asking host's times (ms): the room entry's and the job's time-to-live, the run's limit. */
  cacheTtlMs: number;
  jobTtlMs: number;
  timeoutMs: number;
}

export class WorkQueue {
  readonly queue: Queue<ComputeTask, void>;

  constructor(connection: Redis) {
    this.queue = new Queue<ComputeTask, void>(KEYS.queue, { connection });
    this.queue.on('error', () => {});
  }

  /** Queues `task` under its computation id (adding the same id twice queues it once). */
  async add(task: ComputeTask): Promise<void> {
    // Retried only when storing the result failed (Redis away): a function's own failure and a
    // cancel are recorded by the node and end the task normally.
    const options = { jobId: task.cid, removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: { type: 'exponential', delay: 1000 } };
    await bounded(this.queue.add('compute', task, options), 'queueing a computation');
  }

  /** Queued and running computations, service-wide. */
  async pending(): Promise<number> {
    const counts = await bounded(this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized'), 'counting queued computations');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  /** Takes a queued computation off the queue (it was cancelled before any node took it). */
  async remove(cid: string): Promise<void> {
    await bounded(this.queue.remove(cid), 'removing a computation').catch(() => 0);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
