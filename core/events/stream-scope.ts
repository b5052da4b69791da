/**
 * @module stream-scope
 * StreamScope: everything one event stream holds (a stream slot, hub subscriptions, a job
 * watch, timers), released exactly once when the stream closes, whichever way it closes:
 * the client goes away, the host ends it, or the handler fails before streaming.
 */
import type { FastifyReply } from 'fastify';

export class StreamScope {
  #stops: (() => void)[] = [];
  #closed = false;

  constructor(reply: FastifyReply) {
    // A socket already gone when the handler starts never fires the close the SSE context
    // listens for, so that stream is closed from the start and holds nothing.
    const socket = reply.raw.socket;
    if (!socket || socket.destroyed) this.#closed = true;
    else reply.sse.onClose(() => this.close());
  }

  /** True once the stream is closed; a stream loop stops at the next check. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `stop` when the stream closes (at once when it already has). */
  add(stop: () => void): void {
    if (this.#closed) stop();
    else this.#stops.push(stop);
  }

  /** Releases everything held; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of this.#stops.splice(0)) {
      try {
        stop();
      } catch {
        // One failing release must not keep the others held.
      }
    }
  }
}
