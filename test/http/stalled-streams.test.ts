/**
 * Event streams whose client stops reading, on a real host process with real sockets: a room
 * stream more than 1 MiB behind is dropped (its client, once it reads again, finds the stream
 * ended after fewer events than were sent, and reconnecting gets `state`), while a client that
 * keeps reading stays connected and gets every event; the host's memory does not keep what the
 * stalled clients did not read.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { rssBytes } from '../helpers/process-rss.ts';
import { killAllHosts } from '../helpers/spawn-host.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

afterAll(killAllHosts);

interface Stalled {
  socket: net.Socket;
  /** Everything read once the socket is resumed, and whether the host ended it. */
  drain(): Promise<{ text: string; ended: boolean }>;
}

/** Opens a room stream, reads its response head, then stops reading. */
function openStalled(port: number, roomId: string): Promise<Stalled> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/rooms/${roomId}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((done) => socket.once('close', () => ((ended = true), done())));
    socket.on('error', () => {});
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 200')) reject(new Error(chunk.toString('latin1').slice(0, 200)));
      resolve({
        socket,
        async drain() {
          socket.resume();
          await closed;
          return { text: Buffer.concat(chunks).toString('utf8'), ended };
        },
      });
    });
    socket.once('error', reject);
  });
}

describe('stalled event streams', () => {
  it('drops a room stream more than 1 MiB behind, keeps the readers, and frees what it held', { timeout: 180_000 }, async () => {
    const host = await spawnFixtureHost(['--no-viewer', '--log-level', 'warn', '--write-timeout', '0']);
    const roomId = 'stalled-room';
    const stalled = await Promise.all(Array.from({ length: 5 }, () => openStalled(host.port, roomId)));
    const reader = await openStream(`${host.url}/api/rooms/${roomId}/events`);
    await reader.next((e) => e.event === 'state');
    const before = rssBytes(host.child.pid!);
    // Each change sends two events of about 15 KB (the room's parameters carry a long note):
    // 1,200 changes are about 36 MB for every stream, far past what the sockets' buffers hold.
    const changes = 1200;
    for (let i = 0; i < changes; i++) {
      const note = `${i}:`.padEnd(15_000, 'x');
      const res = await fetch(`${host.url}/api/specimens/dyn-square/data`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { size: 1 + (i % 4), note }, room_id: roomId }),
      });
      expect(res.status, res.status === 200 ? '' : await res.text()).toBe(200);
      await res.arrayBuffer().catch(() => undefined);
    }
    await waitFor(() => (reader.events.filter((e) => e.event === 'result').length >= changes ? true : undefined), 'every result at the reading client');
    const growth = rssBytes(host.child.pid!) - before;
    // Five stalled streams that held what they were sent would hold about 180 MB; the load
    // itself (1,200 computations, their requests and results) accounts for some tens of MB.
    expect(growth).toBeLessThan(90 * 1024 * 1024);
    for (const stream of stalled) {
      const { text, ended } = await stream.drain();
      expect(ended).toBe(true);
      const results = text.split('event: result').length - 1;
      expect(results).toBeLessThan(changes);
    }
    expect(reader.events.filter((e) => e.event === 'result')).toHaveLength(changes);
    // The reader is still connected: one more change reaches it. (Counted from before the
    // request: its event may come before the request's own answer.)
    const seen = reader.events.length;
    await fetch(`${host.url}/api/specimens/dyn-square/data`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { size: 2 }, room_id: roomId }),
    });
    await reader.next((e) => e.event === 'result' && (e.data as { params: { note: string } }).params.note === '', seen);
    // A dropped client that reconnects gets the room's current state first.
    const again = await openStream(`${host.url}/api/rooms/${roomId}/events`);
    expect((await again.next()).event).toBe('state');
    again.close();
    reader.close();
    await host.stop();
  });
});
