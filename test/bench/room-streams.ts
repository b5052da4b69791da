/**
 * @module room-streams
 * Room event streams for the benches that test a room under followers: stalled ones (they read
 * the response head, then nothing more, as a client that stopped reading), reading ones, and a
 * room that writers change as fast as they can with `/data` while such streams follow it.
 * trust.bench.ts measures the host's memory with 50 stalled; probe.bench.ts the change rate
 * with 300.
 */
import net from 'node:net';
import { request } from 'node:http';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { rssMiB } from '../helpers/process-rss.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function post(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export interface StalledStream {
  socket: net.Socket;
  closed: boolean;
}

/** Opens a room stream, reads the response head, then reads nothing more. */
export function openStalled(port: number, roomId: string): Promise<StalledStream> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/rooms/${roomId}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.setNoDelay(true);
    const stream: StalledStream = { socket, closed: false };
    socket.once('data', () => {
      socket.pause();
      resolve(stream);
    });
    socket.on('close', () => (stream.closed = true));
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

export interface ReadingStream {
  events: number;
  ended: boolean;
  close(): void;
}

export function openReading(base: string, roomId: string): Promise<ReadingStream> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/rooms/${roomId}/events`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      const stream: ReadingStream = { events: 0, ended: false, close: () => req.destroy() };
      res.setEncoding('utf8');
      res.on('data', (text: string) => (stream.events += text.split('\n\n').length - 1));
      res.on('end', () => (stream.ended = true));
      res.on('close', () => (stream.ended = true));
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads what a stalled stream was sent and tells whether the host ended it (a paused socket sees no end). */
export async function endedByHost(stream: StalledStream): Promise<boolean> {
  stream.socket.resume();
  const deadline = performance.now() + 10_000;
  while (!stream.closed && performance.now() < deadline) await sleep(50);
  return stream.closed;
}

export interface ChangingRoomOptions {
  stalled: number;
  readers: number;
  writers: number;
  windowS: number;
}

export interface ChangingRoomRun {
  /** Host RSS (MiB) before the streams opened, at its peak, and at the end of the window. */
  before: number;
  peak: number;
  after: number;
  /** Room changes the writers made in the window. */
  changes: number;
  /** Changes made in each second of the window. */
  perSecond: number[];
  /** Stalled streams the host had ended by the time they read again; reading streams still open. */
  closed: number;
  open: number;
  /** Events each reading stream received. */
  events: number[];
}

/**
 * A fixture host whose room `busy` `writers` clients change as fast as they can for `windowS`
 * seconds, followed by `stalled` stalled streams and `readers` reading ones. Each change is the
 * fixtures' `square` with a `note` that makes its room event about 15 KB, so stalled clients
 * fall past the kernel's socket buffers within the window.
 */
export async function changingRoom(options: ChangingRoomOptions): Promise<ChangingRoomRun> {
  const host = await spawnFixtureHost(['--log-level', 'warn', '--pool-size', '2']);
  const pid = host.child.pid!;
  const roomId = 'busy';
  const change = (k: number) =>
    post(host.url, '/api/specimens/dyn-square/data', { params: { size: 1 + (k % 4), note: `${k}:`.padEnd(15_000, 'x') }, room_id: roomId });
  try {
    // Warm: both threads have run, the room has an entry.
    await Promise.all([1, 2].map(async (k) => (await change(-k)).arrayBuffer()));
    await sleep(2000);
    const before = rssMiB(pid);
    const stalled = await Promise.all(Array.from({ length: options.stalled }, () => openStalled(host.port, roomId)));
    const readers = await Promise.all(Array.from({ length: options.readers }, () => openReading(host.url, roomId)));
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 200);
    let changes = 0;
    const perSecond = Array.from({ length: Math.ceil(options.windowS) }, () => 0);
    const from = performance.now();
    const until = from + options.windowS * 1000;
    await Promise.all(
      Array.from({ length: options.writers }, async (_, w) => {
        for (let i = 0; performance.now() < until; i++) {
          const res = await change(w * 1_000_000 + i);
          await res.arrayBuffer();
          changes++;
          perSecond[Math.min(perSecond.length - 1, Math.floor((performance.now() - from) / 1000))]! += 1;
        }
      }),
    );
    clearInterval(sampler);
    const after = rssMiB(pid);
    const open = readers.filter((r) => !r.ended).length;
    const events = readers.map((r) => r.events);
    const closed = (await Promise.all(stalled.map(endedByHost))).filter(Boolean).length;
    for (const s of stalled) s.socket.destroy();
    for (const r of readers) r.close();
    return { before, peak, after, changes, perSecond, closed, open, events };
  } finally {
    await host.stop();
  }
}
