/**
 * @module live-receiver
 * One peer's way in: the others' newest poses, one waiting per sender. While the socket is
 * behind (more than HIGH_WATER bytes unsent) nothing more is written to it, and a sender's
 * newer pose replaces the one waiting, so a slow receiver gets each peer's newest pose and
 * never holds anyone else back: every receiver has its own queue, and no send waits on it.
 */
import type { WebSocket } from 'ws';

/** Unsent bytes past which a receiver is behind. */
const HIGH_WATER = 32 * 1024;
/** How often a receiver that is behind is looked at again. */
const RETRY_MS = 10;

export class LiveReceiver {
  readonly socket: WebSocket;
  #waiting = new Map<string, string>();
  #scheduled = false;

  constructor(socket: WebSocket) {
    this.socket = socket;
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
    if (this.socket.bufferedAmount > HIGH_WATER) {
      this.#scheduled = true;
      setTimeout(() => this.#flush(), RETRY_MS).unref();
      return;
    }
    for (const frame of this.#waiting.values()) this.socket.send(frame);
    this.#waiting.clear();
  }
}
