/**
 * @module peer-channel
 * One end of a federation WebSocket (relay or worker side alike): correlated requests with
 * timeouts and cancellation, many in flight at once in both directions, progress events,
 * binary payloads streamed in bounded chunks under a per-stream credit window, and
 * ping/pong heartbeats that drop a dead peer. See PROTOCOL.md.
 */
import { PassThrough, type Readable } from 'node:stream';
import type WebSocket from 'ws';
import { createHostError, type HostError } from '../errors.ts';
import { PayloadFill } from './payload-fill.ts';
import { fromWireError, toWireError } from './wire-error.ts';
import {
  CHUNK_BYTES,
  HEARTBEAT_DEAD_MS,
  HEARTBEAT_INTERVAL_MS,
  parseWireMessage,
  STREAM_WINDOW_BYTES,
  STREAMED_WINDOW_BYTES,
  type WireMessage,
} from './wire-messages.ts';

/** What a request handler answers: a JSON body, optionally followed by raw bytes. */
export interface HandlerReply {
  body: Record<string, unknown>;
  payload?: { byteLength: number; blocks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> };
}

export interface HandlerContext {
  signal: AbortSignal;
  /** Sends a progress event to the requester. */
  emit(body: Record<string, unknown>): void;
}

export type RequestHandler = (op: string, body: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerReply>;

export interface RequestOptions {
  /** Until the answer's header arrives, and then between chunks. */
  timeoutMs: number;
  signal?: AbortSignal;
  onEvent?: (body: Record<string, unknown>) => void;
  /** `buffer`: the payload arrives as one ArrayBuffer; `stream`: as a Readable, resolved at once. */
  sink?: 'buffer' | 'stream';
  /**
   * With the `buffer` sink: called once the answer's header is in and its buffer allocated,
   * before any payload byte; the fill tells how far the bytes have arrived.
   */
  onPayload?: (body: Record<string, unknown>, fill: PayloadFill) => void;
}

export interface RequestAnswer {
  body: Record<string, unknown>;
  payload: ArrayBuffer | null;
  stream: Readable | null;
  byteLength: number;
}

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

interface Serving {
  controller: AbortController;
  sent: number;
  acked: number;
  wake: (() => void) | null;
}

const STREAM_HIGH_WATER = CHUNK_BYTES;
const SOCKET_HIGH_WATER = 16 * 1024 * 1024;

export class PeerChannel {
  readonly peerId: string;
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #serving = new Map<number, Serving>();
  #handler: RequestHandler;
  #onControl: (message: WireMessage) => void;
  #heartbeat: NodeJS.Timeout;
  #lastSeen = Date.now();
  #closed = false;
  #closeListeners: ((code: number, reason: string) => void)[] = [];
  /** The request the binary frames arriving now answer (set by the peer's `bytes` message). */
  #bytesIn: number | null = null;
  /** The request the binary frames sent now answer, as last announced to the peer. */
  #bytesOut: number | null = null;

  constructor(ws: WebSocket, options: { peerId: string; handler: RequestHandler; onControl: (message: WireMessage) => void }) {
    this.#ws = ws;
    this.peerId = options.peerId;
    this.#handler = options.handler;
    this.#onControl = options.onControl;
    ws.on('message', (data, isBinary) => {
      this.#lastSeen = Date.now();
      try {
        if (isBinary) this.#onChunk(data as Buffer);
        else this.#onText(String(data));
      } catch (error) {
        // Whatever a peer sends, it must not take this process down.
        this.close(1002, `protocol error: ${(error as Error).message}`.slice(0, 120));
      }
    });
    // A peer's ping counts too: ours may wait behind megabytes we are sending.
    ws.on('ping', () => (this.#lastSeen = Date.now()));
    ws.on('pong', () => (this.#lastSeen = Date.now()));
    ws.on('close', (code, reason) => this.#shutdown(code, reason.toString()));
    ws.on('error', () => {});
    this.#heartbeat = setInterval(() => {
      if (Date.now() - this.#lastSeen > HEARTBEAT_DEAD_MS) {
        ws.terminate();
        this.#shutdown(1006, 'no heartbeat');
        return;
      }
      if (ws.readyState === ws.OPEN) ws.ping();
    }, HEARTBEAT_INTERVAL_MS);
    this.#heartbeat.unref();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Requests this side has sent and not yet seen answered. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  onClose(listener: (code: number, reason: string) => void): void {
    this.#closeListeners.push(listener);
  }

  send(message: WireMessage): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(JSON.stringify(message));
  }

  close(code: number, reason: string): void {
    if (this.#ws.readyState === this.#ws.OPEN || this.#ws.readyState === this.#ws.CONNECTING) this.#ws.close(code, reason);
    this.#shutdown(code, reason);
  }

  #disconnected(): HostError {
    return createHostError('SPC_ERR_WORKER_DISCONNECTED', this.peerId);
  }

  #shutdown(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const [id, pending] of this.#pending) this.#fail(id, pending, this.#disconnected());
    for (const serving of this.#serving.values()) {
      serving.controller.abort();
      serving.wake?.();
    }
    this.#serving.clear();
    for (const listener of this.#closeListeners) listener(code, reason);
  }

  // ---------------------------------------------------------------- requester side

  request(op: string, body: Record<string, unknown>, options: RequestOptions): Promise<RequestAnswer> {
    if (this.#closed) return Promise.reject(this.#disconnected());
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
          this.send({ t: 'cancel', id });
          this.#fail(id, pending, createHostError('SPC_ERR_JOB_CANCELLED'));
        };
        options.signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.send({ t: 'req', id, op, body, window: pending.window });
    });
  }

  #arm(id: number, pending: Pending): void {
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = setTimeout(() => {
      // Bytes still waiting for a slow consumer: the sender is held back by our credit, not
      // silent. (A consumer that never reads is its own HTTP connection's business.)
      const stream = pending.stream;
      if (stream && stream.writableLength + stream.readableLength > 0) return this.#arm(id, pending);
      this.send({ t: 'cancel', id });
      this.#fail(id, pending, createHostError('SPC_ERR_WORKER_TIMEOUT', this.peerId, pending.op));
    }, pending.options.timeoutMs);
    pending.timer.unref();
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

  #onResponse(message: Extract<WireMessage, { t: 'res' }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    if (!message.ok) return this.#fail(message.id, pending, fromWireError(this.peerId, message.error));
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
          this.send({ t: 'cancel', id: message.id });
          this.#settle(message.id, pending);
        }
      });
      pending.resolve({ body: message.body, payload: null, stream: pending.stream, byteLength: bytes });
    } else {
      try {
        pending.fill = new PayloadFill(bytes);
      } catch {
        this.send({ t: 'cancel', id: message.id });
        return this.#fail(message.id, pending, createHostError('SPC_ERR_WORKER_ERROR', this.peerId, `cannot hold a ${bytes}-byte result`));
      }
      try {
        pending.options.onPayload?.(message.body, pending.fill);
      } catch (error) {
        this.send({ t: 'cancel', id: message.id });
        return this.#fail(message.id, pending, createHostError('SPC_ERR_WORKER_ERROR', this.peerId, (error as Error).message));
      }
    }
    this.#arm(message.id, pending);
  }

  #onChunk(payload: Buffer): void {
    const id = this.#bytesIn;
    if (id === null) return;
    const pending = this.#pending.get(id);
    if (!pending || pending.expected === 0) return;
    if (pending.received + payload.length > pending.expected) {
      this.send({ t: 'cancel', id });
      return this.#fail(id, pending, createHostError('SPC_ERR_WORKER_ERROR', this.peerId, 'sent more bytes than announced'));
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
    this.send({ t: 'ack', id, bytes: pending.unacked });
    pending.unacked = 0;
  }

  // ---------------------------------------------------------------- responder side

  #onText(text: string): void {
    const message = parseWireMessage(text);
    if (!message) return;
    switch (message.t) {
      case 'req':
        return void this.#serve(message);
      case 'res':
        return this.#onResponse(message);
      case 'bytes':
        this.#bytesIn = message.id;
        return;
      case 'event': {
        this.#pending.get(message.id)?.options.onEvent?.(message.body);
        return;
      }
      case 'cancel': {
        const serving = this.#serving.get(message.id);
        serving?.controller.abort();
        serving?.wake?.();
        return;
      }
      case 'ack': {
        const serving = this.#serving.get(message.id);
        if (serving) {
          serving.acked += message.bytes;
          serving.wake?.();
        }
        return;
      }
      default:
        return this.#onControl(message);
    }
  }

  async #serve(message: Extract<WireMessage, { t: 'req' }>): Promise<void> {
    const { id } = message;
    const window = Math.max(CHUNK_BYTES, message.window ?? STREAM_WINDOW_BYTES);
    const serving: Serving = { controller: new AbortController(), sent: 0, acked: 0, wake: null };
    this.#serving.set(id, serving);
    const signal = serving.controller.signal;
    try {
      const reply = await this.#handler(message.op, message.body ?? {}, {
        signal,
        emit: (body) => {
          if (!signal.aborted) this.send({ t: 'event', id, body });
        },
      });
      if (signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
      const bytes = reply.payload?.byteLength ?? 0;
      this.send({ t: 'res', id, ok: true, body: reply.body, bytes });
      if (reply.payload && bytes > 0) {
        await this.#sendPayload(id, serving, reply.payload.blocks, window);
        if (!signal.aborted && !this.#closed && serving.sent !== bytes) {
          // The requester would otherwise wait out its timeout for bytes that never come.
          throw new Error(`the payload ended after ${serving.sent} of ${bytes} announced bytes`);
        }
      }
    } catch (error) {
      if (this.#serving.get(id) === serving) this.send({ t: 'res', id, ok: false, error: toWireError(error) });
    } finally {
      if (this.#serving.get(id) === serving) this.#serving.delete(id);
    }
  }

  async #sendPayload(id: number, serving: Serving, blocks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, window: number): Promise<void> {
    const signal = serving.controller.signal;
    for await (const block of blocks) {
      for (let offset = 0; offset < block.byteLength; offset += CHUNK_BYTES) {
        while (!signal.aborted && serving.sent - serving.acked >= window) {
          await new Promise<void>((resolve) => (serving.wake = resolve));
          serving.wake = null;
        }
        if (signal.aborted || this.#closed) return;
        const chunk = block.subarray(offset, Math.min(block.byteLength, offset + CHUNK_BYTES));
        serving.sent += chunk.byteLength;
        if (this.#bytesOut !== id) {
          this.send({ t: 'bytes', id });
          this.#bytesOut = id;
        }
        // Sent as a view onto the payload's own memory: with the zero mask nothing is copied.
        if (this.#ws.bufferedAmount > SOCKET_HIGH_WATER) {
          await new Promise<void>((resolve) => this.#ws.send(chunk, { binary: true }, () => resolve()));
        } else {
          this.#ws.send(chunk, { binary: true });
        }
      }
    }
  }
}
