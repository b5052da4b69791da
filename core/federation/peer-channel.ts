/**
 * @module peer-channel
 * One end of a federation WebSocket (relay or worker side alike): correlated requests with
 * timeouts and cancellation, many in flight at once in both directions, progress events,
 * binary payloads streamed in bounded chunks under a per-stream credit window, and
 * ping/pong heartbeats that drop a dead peer. See PROTOCOL.md. The requester side (open
 * requests, their timeouts and arriving payloads) is request-table.ts.
 */
import type WebSocket from 'ws';
import { createHostError, type HostError } from '../errors.ts';
import type { RequestAnswer, RequestHandler, RequestOptions } from './channel-types.ts';
import { RequestTable } from './request-table.ts';
import { toWireError } from './wire-error.ts';
import { CHUNK_BYTES, HEARTBEAT_DEAD_MS, HEARTBEAT_INTERVAL_MS, parseWireMessage, STREAM_WINDOW_BYTES, type WireMessage } from './wire-messages.ts';

interface Serving {
  controller: AbortController;
  sent: number;
  acked: number;
  wake: (() => void) | null;
}

const SOCKET_HIGH_WATER = 16 * 1024 * 1024;

/** A channel's heartbeat: a ping every `intervalMs`; a peer silent past `deadMs` is dropped (the wire's own figures unless told). */
export interface Heartbeats {
  intervalMs: number;
  deadMs: number;
}

export class PeerChannel {
  readonly peerId: string;
  #ws: WebSocket;
  #requests: RequestTable;
  #serving = new Map<number, Serving>();
  #handler: RequestHandler;
  #onControl: (message: WireMessage) => void;
  #heartbeat: NodeJS.Timeout;
  #lastSeen = Date.now();
  /** When the last heartbeat ran (or the channel opened). */
  #lastBeat = Date.now();
  #closed = false;
  #closeListeners: ((code: number, reason: string) => void)[] = [];
  /** The request the binary frames arriving now answer (set by the peer's `bytes` message). */
  #bytesIn: number | null = null;
  /** The request the binary frames sent now answer, as last announced to the peer. */
  #bytesOut: number | null = null;

  /** How often a peer is pinged, and how long its silence may last before it is dropped. */
  #beats: Heartbeats;

  constructor(ws: WebSocket, options: { peerId: string; handler: RequestHandler; onControl: (message: WireMessage) => void; heartbeats?: Heartbeats }) {
    this.#ws = ws;
    this.#beats = options.heartbeats ?? { intervalMs: HEARTBEAT_INTERVAL_MS, deadMs: HEARTBEAT_DEAD_MS };
    this.peerId = options.peerId;
    this.#handler = options.handler;
    this.#onControl = options.onControl;
    this.#requests = new RequestTable(options.peerId, (message) => this.send(message));
    ws.on('message', (data, isBinary) => {
      this.#lastSeen = Date.now();
      try {
        if (isBinary) {
          if (this.#bytesIn !== null) this.#requests.onChunk(this.#bytesIn, data as Buffer);
        } else this.#onText(String(data));
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
    this.#heartbeat = setInterval(() => this.#beat(), this.#beats.intervalMs).unref();
  }

  /**
   * One heartbeat: drops a peer silent for too long, else pings it. A beat that comes late means
   * this process was busy (a large result being copied, a machine short of CPU): what the peer sent
   * meanwhile still waits unread in the socket, and timers run before sockets are read, so that
   * time is not counted as the peer's silence. Only time this side was listening counts.
   */
  #beat(): void {
    const now = Date.now();
    const late = now - this.#lastBeat - this.#beats.intervalMs;
    this.#lastBeat = now;
    if (late > 0) this.#lastSeen = Math.min(now, this.#lastSeen + late);
    if (now - this.#lastSeen > this.#beats.deadMs) {
      this.#ws.terminate();
      this.#shutdown(1006, 'no heartbeat');
      return;
    }
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.ping();
  }

  get closed(): boolean {
    return this.#closed;
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
    this.#requests.failAll(() => this.#disconnected());
    for (const serving of this.#serving.values()) {
      serving.controller.abort();
      serving.wake?.();
    }
    this.#serving.clear();
    for (const listener of this.#closeListeners) listener(code, reason);
  }

  // ---------------------------------------------------------------- requester side

  /** Sends a request; the answer (and its payload) arrive through the request table. */
  request(op: string, body: Record<string, unknown>, options: RequestOptions): Promise<RequestAnswer> {
    if (this.#closed) return Promise.reject(this.#disconnected());
    return this.#requests.request(op, body, options);
  }

  // ---------------------------------------------------------------- responder side

  #onText(text: string): void {
    const message = parseWireMessage(text);
    if (!message) return;
    switch (message.t) {
      case 'req':
        return void this.#serve(message);
      case 'res':
        return this.#requests.onResponse(message);
      case 'bytes':
        this.#bytesIn = message.id;
        return;
      case 'event':
        return this.#requests.onEvent(message.id, message.body);
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
