/**
 * @module live-socket
 * The page's live socket in its room: opened for the peer the page is (its follower's id),
 * each message the host sends handed on, and opened again after a wait when it drops. A
 * socket the host closed for what the page sent (a bad frame, too fast) is not opened again:
 * another try would be refused the same way. Closing it on purpose ends it for good.
 */
import type { LiveMessage } from '../../core/wire/live-types.ts';

/** Close codes the host gives for what the page sent: refused, not lost. */
const REFUSED = new Set([1003, 1007, 1008, 1009]);
const RETRY_MS = [500, 1000, 2000, 4000];

export type SocketState = 'connecting' | 'open' | 'closed';

export interface LiveSocketOptions {
  /** The socket's address (asks the host for a ticket when signed in). */
  url(): Promise<string>;
  message(message: LiveMessage): void;
  /** The socket opened (`open`) or dropped (`closed`, with why: the others' poses are stale). */
  state(state: SocketState, why?: string): void;
}

export class LiveSocket {
  readonly #options: LiveSocketOptions;
  #socket: WebSocket | null = null;
  #ended = false;
  #failures = 0;
  #retry: ReturnType<typeof setTimeout> | null = null;

  constructor(options: LiveSocketOptions) {
    this.#options = options;
    void this.#open();
  }

  /** Sends one frame; false when the socket is not open. */
  send(text: string): boolean {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(text);
    return true;
  }

  /** Closes the socket for good. */
  close(): void {
    this.#ended = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#socket?.close(1000, 'the page left the room');
    this.#socket = null;
  }

  async #open(): Promise<void> {
    this.#options.state('connecting');
    let url: string;
    try {
      url = await this.#options.url();
    } catch (error) {
      return this.#lost(error instanceof Error ? error.message : String(error), true);
    }
    if (this.#ended) return;
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#failures = 0;
      this.#options.state('open');
    });
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      try {
        this.#options.message(JSON.parse(event.data) as LiveMessage);
      } catch {
        // A frame that is not JSON is not ours to show.
      }
    });
    socket.addEventListener('close', (event) => {
      if (this.#socket !== socket || this.#ended) return;
      this.#socket = null;
      this.#lost(event.reason || `closed (${event.code})`, !REFUSED.has(event.code));
    });
  }

  #lost(why: string, again: boolean): void {
    this.#options.state('closed', why);
    if (this.#ended || !again) return;
    const wait = RETRY_MS[Math.min(this.#failures++, RETRY_MS.length - 1)]!;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      void this.#open();
    }, wait);
  }
}
