/**
 * @module live-receiver
 * One peer's way in: the others' newest poses, one waiting per sender. The host keeps at most
 * WINDOW bytes on their way to the peer, known to have arrived when the peer answers a ping
 * sent after them (ws pings carry `f`; every client answers pings): the kernel's buffers would
 * otherwise hold seconds of stale poses for a slow link. While the window is full a sender's
 * newer pose replaces the one waiting, so a slow receiver gets each peer's newest pose and
 * never holds anyone else back: every receiver has its own queue, and no send waits on it.
 */
import type { WebSocket } from 'ws';

/** Bytes sent and not yet known to have arrived, past which a receiver is behind. */
const WINDOW = 16 * 1024;
/** Unsent bytes in the socket past which a receiver is behind too. */
const HIGH_WATER = 32 * 1024;
/** Longest wait before a receiver that is behind is looked at again without a pong. */
const RETRY_MS = 50;
/** At most one flow ping this often. */
const PING_GAP_MS = 20;
/** A flow ping's payload (a heartbeat ping carries another). */
export const FLOW_PING = Buffer.from('f');

export class LiveReceiver {
  readonly socket: WebSocket;
  #waiting = new Map<string, string>();
  #scheduled = false;
  #sent = 0;
  #acked = 0;
  /** The bytes sent when the flow ping in flight left, or null when none is. */
  #pingMark: number | null = null;
  #pingAt = 0;

  constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('pong', (data: Buffer) => {
      if (this.#pingMark === null || !data.equals(FLOW_PING)) return;
      this.#acked = this.#pingMark;
      this.#pingMark = null;
      this.#ping();
      if (this.#waiting.size > 0) this.#flush();
    });
  }

  /** Queues `frame` from `sender`, replacing the one of `sender` still waiting. */
  offer(sender: string, frame: string): void {
    this.#waiting.delete(sender);
    this.#waiting.set(sender, frame);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.socket.readyState !== this.socket.OPEN) return void this.#waiting.clear();
    if (this.#waiting.size === 0) return;
    if (this.#sent - this.#acked > WINDOW || this.socket.bufferedAmount > HIGH_WATER) {
      // A pong reopens the window; the timer covers a socket that drains without one.
      this.#scheduled = true;
      setTimeout(() => this.#flush(), RETRY_MS).unref();
      return;
    }
    for (const frame of this.#waiting.values()) {
      this.socket.send(frame);
      this.#sent += frame.length;
    }
    this.#waiting.clear();
    this.#ping();
  }

  /** Asks the peer to say what arrived, once the last such ask was answered and not too often. */
  #ping(): void {
    if (this.#pingMark !== null || this.#sent === this.#acked || this.socket.readyState !== this.socket.OPEN) return;
    const wait = this.#pingAt + PING_GAP_MS - Date.now();
    if (wait > 0) {
      setTimeout(() => this.#ping(), wait).unref();
      return;
    }
    this.#pingMark = this.#sent;
    this.#pingAt = Date.now();
    this.socket.ping(FLOW_PING);
  }
}
