/**
 * keepAlive on a fake clock: a socket that answers stays, one that stops answering is ended
 * within the loss time, and a stall of the host's own thread (its beat comes late, so pongs may
 * sit unread) is not taken for the peer's silence.
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_LOSS_MS, keepAlive } from '../../core/presence/socket-heartbeat.ts';

/** The part of a socket keepAlive uses: pings counted, terminate recorded, pong and close events. */
class FakeSocket extends EventEmitter {
  pings = 0;
  terminated = false;
  ping(): void {
    this.pings += 1;
  }
  terminate(): void {
    this.terminated = true;
    this.emit('close');
  }
}

let socket: FakeSocket;
let silent: number;
beforeEach(() => {
  vi.useFakeTimers();
  socket = new FakeSocket();
  silent = 0;
  keepAlive(socket as unknown as WebSocket, () => void (silent += 1));
});
afterEach(() => void vi.useRealTimers());

/** Advances the clock a second at a time, the socket answering each ping when `answers`. */
function seconds(count: number, answers: boolean): void {
  for (let i = 0; i < count; i += 1) {
    vi.advanceTimersByTime(1000);
    if (answers && !socket.terminated) socket.emit('pong');
  }
}

describe('keepAlive', () => {
  it('keeps a socket that answers its pings', () => {
    seconds(20, true);
    expect(socket.pings).toBe(20);
    expect(socket.terminated).toBe(false);
    expect(silent).toBe(0);
  });

  it('ends a socket silent past the loss time, once', () => {
    seconds(3, true);
    seconds(Math.ceil(HEARTBEAT_LOSS_MS / 1000) + 2, false);
    expect(socket.terminated).toBe(true);
    expect(silent).toBe(1);
  });

  it('does not count its own late beat as the peer silent', () => {
    seconds(2, true);
    // The host's thread held for 10 s: the clock moves on, but no timer ran and no pong was read.
    vi.setSystemTime(Date.now() + 10_000);
    seconds(1, false);
    expect(socket.terminated).toBe(false);
    seconds(2, true);
    expect(socket.terminated).toBe(false);
    // Silent while the host listens: ended.
    seconds(Math.ceil(HEARTBEAT_LOSS_MS / 1000) + 2, false);
    expect(socket.terminated).toBe(true);
  });
});
