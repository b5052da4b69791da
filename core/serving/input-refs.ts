/**
 * @module input-refs
 * Inputs on a Redis service. The host that takes the request loads the inputs (cache hits,
 * computations, files, uploads, in the request's room) before it queues the computation, and
 * stores each in the blob store: the task carries only their refs, and whichever compute node
 * runs it reads them back. Loading first means a computation never holds a node's slot while
 * it waits for its inputs to be computed by the queue it sits in.
 *
 * A job does not wait for its inputs to answer: its computation is reserved at once and queued
 * once they are stored (jobs/redis-jobs.ts), so the inputs' progress shows in the job's messages
 * (an input computed on a compute node passes its own on). Should that host stop meanwhile,
 * the job ends with an error when its computation's record expires.
 */
import { createHostError } from '../errors.ts';
import type { ComputeRequest } from './result-source.ts';
import { loadInputs } from '../inputs/load-inputs.ts';
import type { BlobRef, BlobStore } from '../blobs/blob-store.ts';

/** The request's inputs loaded and stored; undefined when it has none. */
export async function storeInputs(request: ComputeRequest, blobs: BlobStore, ttlMs: number, signal: AbortSignal): Promise<Record<string, BlobRef> | undefined> {
  if (!request.inputs) return undefined;
  const run = { roomId: request.roomId, signal, ...(request.onProgress ? { onProgress: request.onProgress } : {}) };
  const loaded = await loadInputs({}, request.inputs, run);
  const refs: Record<string, BlobRef> = {};
  for (const [name, result] of Object.entries(loaded)) refs[name] = await blobs.put(result as never, ttlMs);
  return refs;
}

/** `values` with each input replaced by its stored result. @throws SPC_ERR_INPUT_UNKNOWN when one is gone. */
export async function readInputs(values: Record<string, unknown>, refs: Record<string, BlobRef>, blobs: BlobStore): Promise<Record<string, unknown>> {
  const out = { ...values };
  for (const [name, ref] of Object.entries(refs)) {
    const result = await blobs.get(ref);
    if (!result) throw createHostError('SPC_ERR_INPUT_UNKNOWN', name, 'a stored result (it expired before the computation ran)');
    out[name] = result;
  }
  return out;
}
