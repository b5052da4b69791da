/**
 * @module live-receiver.test
 * A receiver that keeps up gets every pose; one whose window is full (its pongs not back) or
 * whose socket is behind gets each sender's newest pose only, in the order its senders last
 * spoke, once it catches up; a closed one gets none.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { FLOW_PING, LiveReceiver } from '../../core/presence/live-receiver.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A socket that records what is sent and answers a flow ping only when told to. */
function fakeSocket() {
  const sent: string[] = [];
  let pings = 0;
  const socket = Object.assign(new EventEmitter(), {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    send: (frame: string) => void sent.push(frame),
    ping: () => void pings++,
  });
  return { socket, sent, pings: () => pings, pong: () => socket.emit('pong', FLOW_PING) };
}

describe('a live receiver', () => {
  it('sends every pose while it keeps up', async () => {
    const fake = fakeSocket();
    const receiver = new LiveReceiver(fake.socket as unknown as WebSocket);
    receiver.offer('a', 'a1');
    await waitFor(() => (fake.sent.length === 1 ? true : undefined), 'a1 sent');
    fake.pong();
    receiver.offer('a', 'a2');
    await waitFor(() => (fake.sent.length === 2 ? true : undefined), 'a2 sent');
    expect(fake.sent).toEqual(['a1', 'a2']);
  });

  it('keeps only each sender’s newest pose while its window is full, and sends them when the pong comes', async () => {
    const fake = fakeSocket();
    const receiver = new LiveReceiver(fake.socket as unknown as WebSocket);
    const big = 'x'.repeat(20_000);
    receiver.offer('z', big);
    await waitFor(() => (fake.pings() === 1 ? true : undefined), 'the flow ping after the big frame');
    for (let i = 1; i <= 50; i++) {
      receiver.offer('a', `a${i}`);
      receiver.offer('b', `b${i}`);
    }
    receiver.offer('a', 'a51');
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.sent).toEqual([big]);
    fake.pong();
    await waitFor(() => (fake.sent.length === 3 ? true : undefined), 'the newest two sent');
    expect(fake.sent.slice(1)).toEqual(['b50', 'a51']);
  });

  it('holds poses while the socket is behind', async () => {
    const fake = fakeSocket();
    fake.socket.bufferedAmount = 1 << 20;
    const receiver = new LiveReceiver(fake.socket as unknown as WebSocket);
    receiver.offer('a', 'a1');
    receiver.offer('a', 'a2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.sent).toEqual([]);
    fake.socket.bufferedAmount = 0;
    await waitFor(() => (fake.sent.length === 1 ? true : undefined), 'the newest sent');
    expect(fake.sent).toEqual(['a2']);
  });

  it('sends nothing once its socket closed', async () => {
    const fake = fakeSocket();
    const receiver = new LiveReceiver(fake.socket as unknown as WebSocket);
    fake.socket.readyState = 3;
    receiver.offer('a', 'a1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.sent).toEqual([]);
  });
});
