/**
 * @module finish-run
 * A compute node's last step of a computation that ran: its result's bytes put in the blob
 * store (a job's result waits, bounded, for a store that is down: store-retries.ts), then the
 * computation's record and its room's pointer changed in one script, with the room's `result`
 * event. A Redis failure here throws: BullMQ runs the computation again (work-queue.ts).
 */
import { isHostError } from '../errors.ts';
import { roomStateOf } from '../serving/result-source.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { BlobStore, PutBlob } from '../blobs/blob-store.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { whenMemoryAllows } from '../redis/redis-unavailable.ts';
import { roomEventMessage } from '../redis/redis-events.ts';
import type { ComputeTask } from './work-queue.ts';
import type { StoreRetries } from './store-retries.ts';

/** What the last step reads of its node. */
export interface FinishingNode {
  nodeId: string;
  redis: ScriptedRedis;
  blobs: BlobStore;
  stores: StoreRetries;
  log: { warn(message: string): void };
}

/** Stores the result of `task` (run as `entry`) and records the computation's end. */
export async function finishRun(node: FinishingNode, task: ComputeTask, entry: FunctionEntry, result: StoredResult): Promise<void> {
  const { redis, blobs } = node;
  const { cid, fn, values, room, specimen, cacheTtlMs, jobTtlMs } = task;
  let ref: PutBlob | null;
  try {
    // A job's result waits (bounded) for a store that is down; one only requests wait for ends at once (a 503).
    const stillWanted = async () => (await redis.hget(KEYS.comp(cid), 'status').catch(() => 'running')) === 'running';
    const note = (why: string) => node.log.warn(`compute node ${node.nodeId}: the result of ${fn} waits for the blob store (${why})`);
    ref = await node.stores.put(result, Math.max(cacheTtlMs, jobTtlMs) + 60_000, { retry: task.job !== undefined, stillWanted, note });
  } catch (error) {
    // Not stored (or not soon enough): it ends with the store's error, not computed again and again.
    if (!isHostError(error) || error.code !== 'SPC_ERR_BLOB_STORE_UNAVAILABLE') throw error;
    await redis.vFail(cid, error.message, error.code, jobTtlMs);
    return;
  }
  if (!ref) return;
  if (!ref.stored && !blobs.holds(ref.hash)) {
    // Refused (out of memory) and not kept here either (a worker keeps nothing): nobody can
    // read it, so the computation ends saying so rather than pointing at missing bytes.
    await redis.vFail(cid, 'the result could not be stored: the blob store is out of memory', 'SPC_ERR_REDIS_UNAVAILABLE', jobTtlMs);
    return;
  }
  const state = { ...roomStateOf({ entry, values, roomId: room, specimenId: specimen }), result_id: ref.hash, blob_id: ref.hash };
  const event = roomEventMessage(room, 'result', state);
  const finish = () => redis.vFinish(cid, ref.hash, ref.meta, JSON.stringify(state), Date.now(), cacheTtlMs, jobTtlMs, event, ref.stored ? '1' : '0');
  // A Redis that just refused the bytes may still count the transfer's buffers for a moment
  // (it frees them within seconds): the small record of the end is worth waiting for.
  await (ref.stored ? finish() : whenMemoryAllows(finish));
}
