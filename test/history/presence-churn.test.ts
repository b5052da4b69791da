/**
 * @module presence-churn.test
 * Many comings and goings in one room on one host: followers of the event stream and live
 * sockets opening, closing cleanly, and dropping silently (a socket that stops reading, so
 * its pings go unanswered). Once the silent ones' heartbeats have run out, the roster holds
 * exactly who is still connected: nobody missing, no ghost.
 */
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Peer } from '../../core/presence/peer.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp();
const OPS = 300;

type Connection = { kind: 'stream'; stream: StreamReader } | { kind: 'socket'; socket: WebSocket };
const silent: WebSocket[] = [];
afterAll(() => silent.forEach((s) => s.terminate()));

async function openSocket(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** A seeded generator, so a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('presence under churn', () => {
  it('ends with exactly who is connected after 300 random joins, leaves and silent drops', async () => {
    const r = room('churn');
    const next = random(59);
    const open = new Map<string, Connection>();
    let made = 0;
    for (let op = 0; op < OPS; op++) {
      const names = [...open.keys()];
      const pick = next();
      if (names.length === 0 || pick < 0.5) {
        const name = `peer${made++}`;
        if (next() < 0.5) open.set(name, { kind: 'stream', stream: await openStream(`${server.url}/api/rooms/${r}/events?name=${name}`) });
        else open.set(name, { kind: 'socket', socket: await openSocket(`${server.url.replace('http', 'ws')}/api/rooms/${r}/live?name=${name}`) });
        continue;
      }
      const name = names[Math.floor(next() * names.length)]!;
      const connection = open.get(name)!;
      open.delete(name);
      if (connection.kind === 'stream') connection.stream.close();
      else if (pick < 0.8) connection.socket.close();
      else {
        // Gone without a word: the socket stays open but reads nothing, so no pong comes back.
        (connection.socket as unknown as { _socket: { pause(): void } })._socket.pause();
        silent.push(connection.socket);
      }
    }
    const expected = [...open.keys()].sort();
    const listed = async () => ((await (await fetch(`${server.url}/api/rooms/${r}/presence`)).json()) as { peers: Peer[] }).peers.map((p) => p.name).sort();
    await waitFor(async () => (JSON.stringify(await listed()) === JSON.stringify(expected) ? true : undefined), 'the roster to hold exactly who is connected');
    expect(silent.length).toBeGreaterThan(5);
    expect(await listed()).toEqual(expected);
    for (const connection of open.values()) {
      if (connection.kind === 'stream') connection.stream.close();
      else connection.socket.close();
    }
    await waitFor(async () => ((await listed()).length === 0 ? true : undefined), 'everyone gone');
  });
});
