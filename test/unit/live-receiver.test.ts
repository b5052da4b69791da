/**
 * @module live-receiver.test
 * A receiver that is behind gets each sender's newest pose only, in the order its senders
 * last spoke, once it catches up; one that keeps up gets every pose; a closed one gets none.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { LiveReceiver } from '../../core/presence/live-receiver.ts';
import { waitFor } from '../helpers/wait-for.ts';

function fakeSocket() {
  const sent: string[] = [];
  const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: (frame: string) => void sent.push(frame) };
  return { socket, sent };
}

describe('a live receiver', () => {
  it('sends every pose while it keeps up', async () => {
    const { socket, sent } = fakeSocket();
    const receiver = new LiveReceiver(socket as unknown as WebSocket);
    receiver.offer('a', 'a1');
    await waitFor(() => (sent.length === 1 ? true : undefined), 'a1 sent');
    receiver.offer('a', 'a2');
    await waitFor(() => (sent.length === 2 ? true : undefined), 'a2 sent');
    expect(sent).toEqual(['a1', 'a2']);
  });

  it('keeps only each sender’s newest pose while behind', async () => {
    const { socket, sent } = fakeSocket();
    socket.bufferedAmount = 1 << 20;
    const receiver = new LiveReceiver(socket as unknown as WebSocket);
    for (let i = 1; i <= 50; i++) {
      receiver.offer('a', `a${i}`);
      receiver.offer('b', `b${i}`);
    }
    receiver.offer('a', 'a51');
    expect(sent).toEqual([]);
    socket.bufferedAmount = 0;
    await waitFor(() => (sent.length === 2 ? true : undefined), 'the newest two sent');
    expect(sent).toEqual(['b50', 'a51']);
  });

  it('sends nothing once its socket closed', async () => {
    const { socket, sent } = fakeSocket();
    const receiver = new LiveReceiver(socket as unknown as WebSocket);
    socket.readyState = 3;
    receiver.offer('a', 'a1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
  });
});
