/**
 * @module remote-invoker
 * Runs a relayed function on its worker: one `invoke` request carrying the checked values and
 * the room; progress events become the job's progress; the result arrives as a result frame
 * written into one preallocated buffer. Aborting the signal sends a cancel to the worker.
 */
import { createHostError } from '../errors.ts';
import type { InvokeContext, Invoker, ProgressUpdate } from '../invoke/invoker.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../workers/protocol.ts';
import type { PeerChannel } from './peer-channel.ts';
import { checkResultHeader, decodeResultFrame } from './result-frame.ts';

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
    const answer = await channel.request(
      'invoke',
      { function: remoteName, values, room_id: ctx.roomId ?? null },
      {
        timeoutMs: this.#timeoutMs,
        signal: ctx.signal,
        sink: 'buffer',
        onEvent: (body) => ctx.onProgress?.(toProgress(body)),
      },
    );
    let header;
    try {
      header = checkResultHeader(answer.body.header);
    } catch (error) {
      throw createHostError('SPC_ERR_WORKER_ERROR', workerId, (error as Error).message);
    }
    if (header.byteLength !== answer.byteLength || !answer.payload) {
      throw createHostError('SPC_ERR_WORKER_ERROR', workerId, 'result payload does not match its header');
    }
    return decodeResultFrame(header, answer.payload);
  }
}

function toProgress(body: Record<string, unknown>): ProgressUpdate {
  return {
    text: typeof body.text === 'string' ? body.text : '',
    fraction: typeof body.fraction === 'number' ? body.fraction : null,
    ts: typeof body.ts === 'number' ? body.ts : Date.now() / 1000,
  };
}
