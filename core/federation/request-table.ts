/**
 * @module request-table
 * The requester side of a federation channel: the requests this end has sent and not yet seen
 * answered, with their timeouts and cancellation, and their payloads arriving in chunks
 * (into a buffer or a stream) under a credit window acknowledged back to the sender.
 */
import { PassThrough } from 'node:stream';
import { createHostError } from '../errors.ts';
import type { RequestAnswer, RequestOptions } from './channel-types.ts';
import { PayloadFill } from '../results/payload-fill.ts';
import { fromWireError } from './wire-error.ts';
import { CHUNK_BYTES, STREAM_WINDOW_BYTES, STREAMED_WINDOW_BYTES, type WireMessage } from './wire-messages.ts';

const STREAM_HIGH_WATER = CHUNK_BYTES;

interface Pending {
  op: string;
  options: RequestOptions;
  resolve: (answer: RequestAnswer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | null;
  onAbort: (() => void) | null;
  expected: number;
  received: number;
  fill: PayloadFill | null;
  stream: PassThrough | null;
  body: Record<string, unknown>;
  /** Bytes the sender may have unacknowledged (sent with the request). */
  window: number;
  /** Bytes consumed and not yet acknowledged to the sender. */
  unacked: number;
}

export class RequestTable {
  #peerId: string;
  #send: (message: WireMessage) => void;
  #nextId = 1;
  #pending = new Map<number, Pending>();

  constructor(peerId: string, send: (message: WireMessage) => void) {
    this.#peerId = peerId;
    this.#send = send;
  }

  /** Requests sent and not yet answered. */
  get size(): number {
    return this.#pending.size;
  }

  /** Fails every open request (the channel closed). */
  failAll(error: () => Error): void {
    for (const [id, pending] of this.#pending) this.#fail(id, pending, error());
  }

  /** A progress event for request `id`. */
  onEvent(id: number, body: Record<string, unknown>): void {
    this.#pending.get(id)?.options.onEvent?.(body);
  }

  request(op: string, body: Record<string, unknown>, options: RequestOptions): Promise<RequestAnswer> {
    if (options.signal?.aborted) return Promise.reject(createHostError('SPC_ERR_JOB_CANCELLED'));
    const id = this.#nextId;
    this.#nextId = this.#nextId >= 0xffffffff ? 1 : this.#nextId + 1;
    return new Promise<RequestAnswer>((resolve, reject) => {
      const pending: Pending = {
        op,
        options,
        resolve,
        reject,
        timer: null,
        onAbort: null,
        expected: 0,
        received: 0,
        fill: null,
        stream: null,
        body: {},
        // Files stream to HTTP clients at their pace: a smaller window bounds what waits here.
        window: options.sink === 'stream' ? STREAMED_WINDOW_BYTES : STREAM_WINDOW_BYTES,
        unacked: 0,
      };
      this.#pending.set(id, pending);
      this.#arm(id, pending);
      if (options.signal) {
        pending.onAbort = () => {
          this.#send({ t: 'cancel', id });
          this.#fail(id, pending, createHostError('SPC_ERR_JOB_CANCELLED'));
        };
        options.signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.#send({ t: 'req', id, op, body, window: pending.window });
    });
  }

  #arm(id: number, pending: Pending): void {
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = setTimeout(() => {
      // Bytes still waiting for a slow consumer: the sender is held back by our credit, not
      // silent. (A consumer that never reads is its own HTTP connection's business.)
      const stream = pending.stream;
      if (stream && stream.writableLength + stream.readableLength > 0) return this.#arm(id, pending);
      this.#send({ t: 'cancel', id });
      this.#fail(id, pending, createHostError('SPC_ERR_WORKER_TIMEOUT', this.#peerId, pending.op));
    }, pending.options.timeoutMs).unref();
  }

  #settle(id: number, pending: Pending): void {
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = null;
    if (pending.onAbort) pending.options.signal?.removeEventListener('abort', pending.onAbort);
    this.#pending.delete(id);
  }

  #fail(id: number, pending: Pending, error: Error): void {
    if (this.#pending.get(id) !== pending) return;
    this.#settle(id, pending);
    if (pending.stream) pending.stream.destroy(error);
    pending.fill?.fail(error);
    pending.reject(error);
  }

  onResponse(message: Extract<WireMessage, { t: 'res' }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    if (!message.ok) return this.#fail(message.id, pending, fromWireError(this.#peerId, message.error));
    const bytes = message.bytes ?? 0;
    pending.body = message.body;
    pending.expected = bytes;
    if (bytes === 0) {
      this.#settle(message.id, pending);
      const stream = pending.options.sink === 'stream' ? new PassThrough() : null;
      stream?.end();
      return pending.resolve({ body: message.body, payload: pending.options.sink === 'stream' ? null : new ArrayBuffer(0), stream, byteLength: 0 });
    }
    if (pending.options.sink === 'stream') {
      pending.stream = new PassThrough({ highWaterMark: STREAM_HIGH_WATER });
      // The consumer went away: stop the sender.
      pending.stream.once('close', () => {
        if (this.#pending.get(message.id) === pending && pending.received < pending.expected) {
          this.#send({ t: 'cancel', id: message.id });
          this.#settle(message.id, pending);
        }
      });
      pending.resolve({ body: message.body, payload: null, stream: pending.stream, byteLength: bytes });
    } else {
      try {
        pending.fill = new PayloadFill(bytes);
      } catch {
        this.#send({ t: 'cancel', id: message.id });
        return this.#fail(message.id, pending, createHostError('SPC_ERR_WORKER_ERROR', this.#peerId, `cannot hold a ${bytes}-byte result`));
      }
      try {
        pending.options.onPayload?.(message.body, pending.fill);
      } catch (error) {
        this.#send({ t: 'cancel', id: message.id });
        return this.#fail(message.id, pending, createHostError('SPC_ERR_WORKER_ERROR', this.#peerId, (error as Error).message));
      }
    }
    this.#arm(message.id, pending);
  }

  onChunk(id: number, payload: Buffer): void {
    const pending = this.#pending.get(id);
    if (!pending || pending.expected === 0) return;
    if (pending.received + payload.length > pending.expected) {
      this.#send({ t: 'cancel', id });
      return this.#fail(id, pending, createHostError('SPC_ERR_WORKER_ERROR', this.#peerId, 'sent more bytes than announced'));
    }
    pending.received += payload.length;
    const done = pending.received === pending.expected;
    if (pending.fill) {
      pending.fill.write(payload);
      this.#acknowledge(id, pending, payload.length, done);
      if (done) {
        this.#settle(id, pending);
        return pending.resolve({ body: pending.body, payload: pending.fill.bytes.buffer as ArrayBuffer, stream: null, byteLength: pending.expected });
      }
    } else if (pending.stream) {
      const stream = pending.stream;
      stream.write(payload, () => this.#acknowledge(id, pending, payload.length, done));
      if (done) {
        this.#settle(id, pending);
        stream.end();
        return;
      }
    }
    this.#arm(id, pending);
  }

  /**
   * Credits consumed bytes back to the sender, a quarter window at a time (and at the end), so
   * a 256 MiB payload costs 32 acks rather than one per chunk.
   */
  #acknowledge(id: number, pending: Pending, bytes: number, last: boolean): void {
    pending.unacked += bytes;
    if (!last && pending.unacked < pending.window / 4) return;
    this.#send({ t: 'ack', id, bytes: pending.unacked });
    pending.unacked = 0;
  }
}
