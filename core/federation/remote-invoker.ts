/**
 * @module remote-invoker
 * Runs a relayed function on its worker: one `invoke` request carrying the checked values and
 * the room; progress events become the job's progress; the result arrives as a result frame
 * written into one preallocated buffer. Once the frame's header is in, the result (views onto
 * that buffer) is announced as arriving, so a reply can follow the bytes as they come.
 * Aborting the signal sends a cancel to the worker.
 */
import { createHostError } from '../errors.ts';
import type { InvokeContext, Invoker, JobRef, ProgressUpdate } from '../invoke/invoker.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { arrivingResult } from '../results/payload-fill.ts';
import type { PeerChannel } from './peer-channel.ts';
import { checkResultHeader, decodeResultFrame, type ResultHeader } from '../results/result-frame.ts';

export class RemoteInvoker implements Invoker {
  #channelOf: (workerId: string) => PeerChannel | undefined;
  #timeoutMs: number;

  constructor(channelOf: (workerId: string) => PeerChannel | undefined, options: { timeoutMs: number }) {
    this.#channelOf = channelOf;
    this.#timeoutMs = options.timeoutMs;
  }

  async invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    if (entry.source.kind !== 'remote') throw new Error(`function '${entry.name}' is not a relayed function`);
    const { workerId, remoteName } = entry.source;
    const channel = this.#channelOf(workerId);
    if (!channel) throw createHostError('SPC_ERR_WORKER_DISCONNECTED', workerId);
    let arriving: StoredResult | null = null;
    const answer = await channel.request(
      'invoke',
      { function: remoteName, values, room_id: ctx.roomId ?? null, job: ctx.job ? wireJob(workerId, ctx.job) : null },
      {
        timeoutMs: this.#timeoutMs,
        signal: ctx.signal,
        sink: 'buffer',
        onEvent: (body) => ctx.onProgress?.(toProgress(body)),
        // A header that does not fit throws here, and the channel fails the request (502).
        onPayload: (body, fill) => {
          arriving = decodeResultFrame(checkedHeader(body, fill.bytes.byteLength), fill.bytes.buffer as ArrayBuffer);
          ctx.onArriving?.(arrivingResult(arriving, fill));
        },
      },
    );
    if (arriving) return arriving;
    // No payload bytes at all: onPayload was not called.
    try {
      return decodeResultFrame(checkedHeader(answer.body, answer.byteLength), answer.payload ?? new ArrayBuffer(0));
    } catch (error) {
      throw createHostError('SPC_ERR_WORKER_ERROR', workerId, (error as Error).message);
    }
  }
}

/** The checked result header of an answer carrying `byteLength` payload bytes; throws if it does not fit. */
function checkedHeader(body: Record<string, unknown>, byteLength: number): ResultHeader {
  const header = checkResultHeader(body.header);
  if (header.byteLength !== byteLength) throw new Error('result payload does not match its header');
  return header;
}

/** The job as the worker names it: same id, the specimen without this relay's prefix. */
function wireJob(workerId: string, job: JobRef): { id: string; specimen_id: string | null } {
  const prefix = `${workerId}:`;
  const specimenId = job.specimenId?.startsWith(prefix) ? job.specimenId.slice(prefix.length) : null;
  return { id: job.id, specimen_id: specimenId };
}

function toProgress(body: Record<string, unknown>): ProgressUpdate {
  return {
    text: typeof body.text === 'string' ? body.text : '',
    fraction: typeof body.fraction === 'number' ? body.fraction : null,
    ts: typeof body.ts === 'number' ? body.ts : Date.now() / 1000,
  };
}
