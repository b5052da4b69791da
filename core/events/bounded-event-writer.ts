/**
 * @module bounded-event-writer
 * Sends an event stream's events to a client that may stop reading, holding at most about
 * {@link MAX_STREAM_BACKLOG} for it, for at most {@link MAX_STREAM_BACKLOG_AGE_MS}. Events wait
 * in a queue of their own as references to texts every stream shares (shared-event-text.ts);
 * only what the socket accepts without asking to drain is written, so the process holds for a
 * stalled client one socket's worth of written bytes (node's buffer and the copy the write in
 * flight keeps) plus references, instead of a flattened copy of every unread event and a
 * promise and two listeners for each (what writing every event straight away cost: about
 * three times the bound).
 *
 * Sending never writes: it queues a reference and the queue is written on a later turn of the
 * event loop, all of it at once (one corked write). So whoever publishes an event (a request
 * that changed a room) never waits on any stream, however many there are and however slowly
 * they read, and a burst of events costs each stream one write, not one per event.
 *
 * A client is dropped when its backlog (written but unsent, plus queued) passes the bound, or
 * when it has been behind (the socket not taking what is written) for longer than the age
 * bound: its socket is destroyed, the queue let go, and a garbage collection scheduled for
 * when the host goes quiet, so the memory the stream held is given back rather than kept until
 * some later collection.
 */
import type { FastifyReply } from 'fastify';
import { IdleCollector } from '../memory/idle-gc.ts';
import type { EventText } from './shared-event-text.ts';
import { MAX_STREAM_BACKLOG, MAX_STREAM_BACKLOG_AGE_MS } from './stream-backlog.ts';

/** What a queued reference costs beyond the text it points at (an array slot and its share of the queue). */
const PER_QUEUED_BYTES = 16;

/** One collection for all streams, a second after the last drop. */
const afterDrops = new IdleCollector(1000);

export class BoundedEventWriter {
  #reply: FastifyReply;
  #queue: EventText[] = [];
  #head = 0;
  #queued = 0;
  #closed = false;
  #maxBacklog: number;
  #maxAgeMs: number;
  #onDrop: () => void;
  #flushing: NodeJS.Immediate | null = null;
  /** Set while the client is behind: it drops the client once the age bound passes. */
  #behind: NodeJS.Timeout | null = null;

  /** `onDrop`: called once when the client is dropped for being too far (or too long) behind. */
  constructor(reply: FastifyReply, options: { onDrop: () => void; maxBacklog?: number; maxAgeMs?: number }) {
    this.#reply = reply;
    this.#onDrop = options.onDrop;
    this.#maxBacklog = options.maxBacklog ?? MAX_STREAM_BACKLOG;
    this.#maxAgeMs = options.maxAgeMs ?? MAX_STREAM_BACKLOG_AGE_MS;
    reply.raw.on('drain', this.#flush);
  }

  /** Bytes written and not yet sent, plus the bytes queued behind them. */
  get backlog(): number {
    return this.#reply.raw.writableLength + this.#queued;
  }

  /** Queues `event` to be written on a later turn; drops the client past the bound. */
  send(event: EventText): void {
    if (this.#closed) return;
    this.#queue.push(event);
    this.#queued += event.bytes + PER_QUEUED_BYTES;
    if (this.backlog > this.#maxBacklog) {
      this.#drop();
      return;
    }
    // The response head goes at once: the route's handler returns before the first flush.
    if (!this.#reply.raw.headersSent) this.#reply.sse.sendHeaders();
    this.#flushing ??= setImmediate(this.#flush);
  }

  #drop(): void {
    this.#reply.raw.destroy();
    this.close();
    afterDrops.schedule();
    this.#onDrop();
  }

  #flush = (): void => {
    this.#flushing = null;
    const raw = this.#reply.raw;
    if (this.#closed || raw.destroyed) return;
    // Only while the socket has not asked to drain: past that, node would keep the text.
    raw.cork();
    while (this.#head < this.#queue.length && !raw.writableNeedDrain) {
      const next = this.#queue[this.#head]!;
      this.#queue[this.#head++] = undefined as unknown as EventText;
      this.#queued -= next.bytes + PER_QUEUED_BYTES;
      raw.write(next.text);
    }
    raw.uncork();
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#watchAge(raw.writableNeedDrain || this.#queued > 0);
  };

  /** Starts the age bound when the client falls behind; stops it once it has caught up. */
  #watchAge(behind: boolean): void {
    if (!behind) {
      if (this.#behind) clearTimeout(this.#behind);
      this.#behind = null;
      return;
    }
    if (this.#behind) return;
    this.#behind = setTimeout(() => {
      this.#behind = null;
      if (!this.#closed) this.#drop();
    }, this.#maxAgeMs).unref();
  }

  /** Lets go of the queue and stops writing (the stream is over). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
    this.#queued = 0;
    if (this.#flushing) clearImmediate(this.#flushing);
    if (this.#behind) clearTimeout(this.#behind);
    this.#flushing = null;
    this.#behind = null;
    this.#reply.raw.off('drain', this.#flush);
  }
}
