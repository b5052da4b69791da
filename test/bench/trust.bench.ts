/**
 * @module trust.bench
 * `npm run bench trust` (with the Redis scenarios of trust-redis.bench.ts): against a host
 * process on loopback,
 * (a) short work beside a flood: 1,000 `/start` of a 2 s CPU function (`burn`), one per room
 *     over 1,000 rooms, on a pool of 2, while a small mesh (`grid_mesh`, a few ms alone) is
 *     computed every 500 ms in rooms of its own; reports the small requests' latency (p50, p99,
 *     max) over a bounded window, then cancels the rest of the flood;
 * (b) 50 stalled room streams (they read the response head, then nothing) and 5 reading ones
 *     on a room that 8 clients change as fast as they can with `/data` (events of about
 *     15 KB each); reports the host's RSS
 *     growth per stalled stream, how many stalled streams the host closed, and how many reading
 *     streams are still open. VITRINE_TRUST_WINDOW_S sets each window (default 40 s).
 */
import net from 'node:net';
import { request } from 'node:http';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { rssMiB } from '../helpers/process-rss.ts';
import { fmt, percentile, startBenchHost } from './host-helpers.ts';

const WINDOW_S = Number(process.env.VITRINE_TRUST_WINDOW_S ?? 40);
const FLOOD_JOBS = 1000;
const STALLED = Number(process.env.VITRINE_TRUST_STALLED ?? 50);
const READERS = 5;
const WRITERS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function shortBesideFlood(): Promise<string[]> {
  const host = await startBenchHost(['--pool-size', '2', '--max-jobs', String(FLOOD_JOBS + 100)]);
  const base = host.url;
  // One small run first, as a viewer would have done: the host learns the function is short.
  await (await post(base, '/api/specimens/grid_mesh/data', { params: { triangles: 2000 }, room_id: 'warm' })).arrayBuffer();
  const jobs: string[] = [];
  const started = performance.now();
  for (let i = 0; i < FLOOD_JOBS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, FLOOD_JOBS - i) }, async (_, k) => {
        const res = await post(base, '/api/specimens/burn/start', { params: { seconds: 2, seed: i + k }, room_id: `flood-${i + k}` });
        return ((await res.json()) as { job_id?: string }).job_id;
      }),
    );
    for (const id of batch) if (id) jobs.push(id);
  }
  const floodSubmitS = (performance.now() - started) / 1000;
  process.stderr.write(`flood of ${jobs.length} submitted in ${fmt(floodSubmitS, 1)} s\n`);
  const latencies: number[] = [];
  const until = performance.now() + WINDOW_S * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const t = performance.now();
    const res = await post(base, '/api/specimens/grid_mesh/data', { params: { triangles: 2000 + (i % 500) * 2 }, room_id: `small-${i}` });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`small /data answered ${res.status}`);
    latencies.push(performance.now() - t);
    if (i % 10 === 0) process.stderr.write(`small #${i}: ${fmt(performance.now() - t, 1)} ms\n`);
    await sleep(Math.max(0, 500 - (performance.now() - t)));
  }
  const progress = await Promise.all(
    jobs.slice(0, 200).map(async (id) => ((await (await fetch(`${base}/api/jobs/${id}/progress`)).json()) as { status: string }).status),
  );
  const done = progress.filter((s) => s === 'done').length;
  for (let i = 0; i < jobs.length; i += 50) await Promise.all(jobs.slice(i, i + 50).map((id) => fetch(`${base}/api/jobs/${id}`, { method: 'DELETE' })));
  await host.stop();
  // The same small computation on an idle host, for reference.
  return [
    `flood: ${jobs.length} jobs of 2 s CPU in ${jobs.length} rooms accepted in ${fmt(floodSubmitS, 1)} s (pool 2); ${done} of the first 200 done after ` +
    `the window`,
    `small mesh /data every 500 ms in other rooms during ${WINDOW_S} s: ${latencies.length} requests, p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ` +
    `${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(Math.max(...latencies), 1)} ms (target p99 <= 300 ms)`,
  ];
}

interface StalledStream {
  socket: net.Socket;
  closed: boolean;
}

/** Opens a room stream, reads the response head, then reads nothing more. */
function openStalled(port: number, roomId: string): Promise<StalledStream> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/rooms/${roomId}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    });
    // A small receive buffer, as a client that stopped reading would leave it.
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

interface ReadingStream {
  events: number;
  ended: boolean;
  close(): void;
}

function openReading(base: string, roomId: string): Promise<ReadingStream> {
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
async function endedByHost(stream: StalledStream): Promise<boolean> {
  stream.socket.resume();
  const deadline = performance.now() + 10_000;
  while (!stream.closed && performance.now() < deadline) await sleep(50);
  return stream.closed;
}

async function changingRoom(
  stalledCount: number,
): Promise<{ before: number; peak: number; after: number; changes: number; closed: number; open: number; events: number[] }> {
  // The test fixtures' `square`, whose `note` parameter makes each room event about 15 KB, so
  // the stalled clients fall past the kernel's socket buffers within the window.
  const host = await spawnFixtureHost(['--log-level', 'warn', '--pool-size', '2']);
  const pid = host.child.pid!;
  const roomId = 'busy';
  const change = (k: number) =>
    post(host.url, '/api/specimens/dyn-square/data', { params: { size: 1 + (k % 4), note: `${k}:`.padEnd(15_000, 'x') }, room_id: roomId });
  // Warm: both threads have run, the room has an entry.
  await Promise.all([1, 2].map(async (k) => (await change(-k)).arrayBuffer()));
  await sleep(2000);
  const before = rssMiB(pid);
  const stalled = await Promise.all(Array.from({ length: stalledCount }, () => openStalled(host.port, roomId)));
  const readers = await Promise.all(Array.from({ length: READERS }, () => openReading(host.url, roomId)));
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 200);
  let changes = 0;
  const until = performance.now() + WINDOW_S * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; performance.now() < until; i++) {
        const res = await change(w * 1_000_000 + i);
        await res.arrayBuffer();
        changes++;
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
  await host.stop();
  return { before, peak, after, changes, closed, open, events };
}

async function stalledStreams(): Promise<string[]> {
  // The same load without stalled streams first: what the changes themselves cost.
  const control = await changingRoom(0);
  const run = await changingRoom(STALLED);
  const perStream = (run.peak - run.before - (control.peak - control.before)) / STALLED;
  return [
    `${STALLED} stalled room streams + ${READERS} reading ones, ${WRITERS} clients changing the room for ${WINDOW_S} s: ${run.changes} changes ` +
    `(${fmt(run.changes / WINDOW_S, 0)}/s, events of ~15 KB)`,
    `host RSS ${fmt(run.before, 0)} MiB before, peak ${fmt(run.peak, 0)} MiB, ${fmt(run.after, 0)} MiB at the end; the same load with no stalled stream: ` +
    `${fmt(control.before, 0)} -> peak ${fmt(control.peak, 0)} MiB (${control.changes} changes)`,
    `growth per stalled stream, beyond the load's own: ${fmt(perStream)} MiB at peak (target <= 2 MiB), ` +
    `${fmt((run.after - run.before - (control.after - control.before)) / STALLED)} MiB at the end (control ended at ${fmt(control.after, 0)} MiB)`,
    `stalled streams ended by the host: ${run.closed} of ${STALLED}; reading streams still open: ${run.open} of ${READERS} (events each: ` +
    `${Math.min(...run.events)}-${Math.max(...run.events)})`,
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const only = process.env.VITRINE_TRUST_ONLY;
  const lines: string[] = [];
  if (!only || only === 'streams') lines.push(...(await stalledStreams()));
  if (!only || only === 'short') lines.push(...(await shortBesideFlood()));
  return { name: 'trust: short work beside a flood, stalled room streams', lines };
}
