/**
 * BoundedEventWriter on a real socket: for a client that stops reading, what is written into
 * node's buffers stays about one socket buffer and one event (the rest waits as references to
 * shared texts), the client is dropped once written-and-unsent plus queued passes the bound,
 * exactly once, with its socket destroyed and its queue let go; a reading client gets every
 * event, in order. Sending only queues (the publisher never writes to any socket: the queue is
 * written on a later turn), and a client behind for longer than the age bound is dropped
 * however little it holds.
 */
import { fastifySSE } from '@fastify/sse';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedEventWriter } from '../../core/events/bounded-event-writer.ts';
import { sharedEventText } from '../../core/events/shared-event-text.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const BOUND = 256 * 1024;

const EVENT_BYTES = 64 * 1024;
const text = (i: number) => sharedEventText({ event: 'result', data: { i, note: 'x'.repeat(EVENT_BYTES) } });

interface Opened {
  writer: BoundedEventWriter;
  drops: number;
  /** The most bytes node's buffers held for the stream after any send. */
  maxWritten: number;
  raw: ServerResponse;
}

async function server(maxAgeMs?: number): Promise<{ app: FastifyInstance; port: number; opened: Opened[] }> {
  const app = Fastify();
  await app.register(fastifySSE, { heartbeatInterval: 60_000 });
  const opened: Opened[] = [];
  app.get('/stream', { sse: 'only' }, async (_request, reply) => {
    reply.sse.keepAlive();
    const entry = { drops: 0, maxWritten: 0, raw: reply.raw } as Opened;
    entry.writer = new BoundedEventWriter(reply, { maxBacklog: BOUND, ...(maxAgeMs ? { maxAgeMs } : {}), onDrop: () => void entry.drops++ });
    reply.sse.onClose(() => entry.writer.close());
    opened.push(entry);
    // The first event sends the response head.
    entry.writer.send(text(-1));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, port: address.port, opened };
}

function stalledClient(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'));
    // A small receive buffer and no reading: the host's writes stop being taken at once.
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
    socket.on('error', () => {});
  });
}


describe('BoundedEventWriter', () => {
  let app: FastifyInstance | null = null;
  afterAll(async () => app?.close());

  it('holds a stalled client near the bound, drops it once, and sends a reading client everything in order', async () => {
    const s = await server();
    app = s.app;
    const socket = await stalledClient(s.port);
    const reader = await openStream(`http://127.0.0.1:${s.port}/stream`);
    await waitFor(() => (s.opened.length === 2 ? true : undefined), 'both streams open');
    const [stalled, reading] = s.opened as [Opened, Opened];
    let sent = 0;
    // Far more than the kernel's buffers and the bound: 400 events of 64 KiB (25 MiB).
    for (let i = 0; i < 400; i++) {
      for (const o of [stalled, reading]) {
        o.writer.send(text(i));
        o.maxWritten = Math.max(o.maxWritten, o.raw.writableLength);
        if (o === stalled && stalled.drops === 0) expect(stalled.writer.backlog).toBeLessThanOrEqual(BOUND);
      }
      sent++;
      // At the reading client's pace (it reads in this process): it stays well within the bound.
      if (reading.writer.backlog > BOUND / 4)
        await waitFor(() => (reading.writer.backlog <= BOUND / 8 ? true : undefined), 'the reading client to catch up', 20_000, 1);
    }
    expect(stalled.drops).toBe(1);
    expect(stalled.raw.destroyed).toBe(true);
    // Node's buffers held at most one socket buffer (16 KiB) and an event, never the backlog.
    expect(stalled.maxWritten).toBeLessThan(16 * 1024 + 2 * EVENT_BYTES);
    expect(stalled.writer.backlog).toBe(0);
    // The stalled client, reading again, finds its stream ended well before the last event.
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(Buffer.concat(received).toString().split('event: result').length - 1).toBeLessThan(sent);

    await waitFor(() => (reader.events.length >= sent + 1 ? true : undefined), 'every event at the reading client');
    expect(reader.events.map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: sent + 1 }, (_, i) => i - 1));
    expect(reading.drops).toBe(0);
    reader.close();
  });

  it('queues on send and writes on a later turn; drops a client behind for longer than the age bound', async () => {
    const s = await server(300);
    const socket = await stalledClient(s.port);
    await waitFor(() => (s.opened.length === 1 ? true : undefined), 'the stream open');
    const stalled = s.opened[0]!;
    await waitFor(() => (stalled.raw.writableLength === 0 ? true : undefined), 'the first event written');
    const written = (stalled.raw.socket?.bytesWritten ?? 0) + stalled.raw.writableLength;
    stalled.writer.send(text(0));
    // Nothing was written by the send itself.
    expect((stalled.raw.socket?.bytesWritten ?? 0) + stalled.raw.writableLength).toBe(written);
    // A little at a time, well under the byte bound, until the socket takes no more.
    for (let i = 1; stalled.drops === 0 && i < 200; i++) {
      stalled.writer.send(sharedEventText({ event: 'view', data: { i } }));
      await new Promise((resolve) => setImmediate(resolve));
      if (stalled.raw.writableNeedDrain) break;
      stalled.writer.send(text(i));
    }
    expect(stalled.writer.backlog).toBeLessThan(BOUND);
    await waitFor(() => (stalled.drops === 1 ? true : undefined), 'the stalled client to be dropped for its age');
    expect(stalled.raw.destroyed).toBe(true);
    socket.destroy();
    await s.app.close();
  });
});
