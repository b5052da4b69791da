/**
 * @module presence.bench
 * Live poses on a Redis service (`npm run bench presence`): a real redis-server and two
 * `vitrine serve --redis` hosts, 24 peers (12 on each) each sending a pose 20 times a second
 * over `WS /api/rooms/{room}/live` and receiving everyone else's.
 * 1. send-to-receipt p50/p99 over every pose every peer received (target p99 ≤ 100 ms on
 *    loopback), split into the leg from the sender to its host taking the pose (the pose's `t`
 *    to the frame's `ts`) and the host's share (from `ts` to the receiver's socket: the sender's
 *    host, Redis, the receiver's host), and the hosts' CPU per second and per pose delivered;
 * 2. the same beside one more receiver throttled to 100 kbit/s (a loopback proxy pacing what the
 *    host sends it): the 24's p99 again, side by side with run 1 (it must not move), and what
 *    the throttled one got (poses, and how old they were when they arrived: newest-wins);
 * 3. bad input meanwhile: a 1,000 Hz sender, NaN poses and 1 MB frames (each closed with its
 *    reason), and `/healthz` p99 during them against idle;
 * 5. seeking: a room set to another room's state at the middle of a one-hour log (36,000 entries, 10 a
 *    second: views, marks and scenes), read from the log store and folded (target ≤ 1 s);
 * 6. replay timing: a session of view changes at irregular gaps recorded on one host, played into
 *    another room at speed 1 and 2; each replayed change's offset (the replayed room's log, from its
 *    first change) against the original's over the speed: the largest error (target ≤ 50 ms);
 * 4. the log's size per peer-hour: an hour of one active peer (a view change every 5 s, a mark
 *    a minute, a layer changed every 3 minutes in a three-layer scene) appended to a room log,
 *    its entries' JSON counted. Poses are not logged, so peers that only look add nothing.
 * The machine's load average is printed first: on a shared machine the latencies move with it.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { Replays } from '../../core/history/replays.ts';
import type { LogType } from '../../core/history/room-log-store.ts';
import path from 'node:path';
import WebSocket from 'ws';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { fmt, percentile } from './host-helpers.ts';
import { startThrottledLink } from './throttled-link.ts';

const PEERS = 24;
const HZ = 20;
const SECONDS = Number(process.env.BENCH_PRESENCE_SECONDS ?? 10);
const now = () => performance.timeOrigin + performance.now();
const placed = () => ({ position: [Math.random(), 1.6, Math.random()], orientation: [0, 0, 0, 1] });

interface Peer {
  socket: WebSocket;
  /** [send-to-receipt, sender-to-host, host share] per pose received, ms. */
  got: [number, number, number][];
}

function openPeer(base: string, roomId: string, name: string): Promise<Peer> {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/rooms/${roomId}/live?name=${name}`, { perMessageDeflate: false });
  const peer: Peer = { socket, got: [] };
  socket.on('message', (data) => {
    const at = now();
    const message = JSON.parse(String(data)) as { type: string; ts: number; pose: { t: number } };
    if (message.type === 'pose') peer.got.push([at - message.pose.t, message.ts - message.pose.t, at - message.ts]);
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(peer));
    socket.once('error', reject);
  });
}

/** Every peer sends HZ poses a second for SECONDS; answers when done. */
async function sendFor(peers: Peer[]): Promise<void> {
  const timers = peers.map((peer, i) => {
    const pose = () => JSON.stringify({ head: placed(), hands: { left: placed(), right: placed() }, pointer: placed(), t: now() });
    const send = () => peer.socket.readyState === WebSocket.OPEN && peer.socket.send(pose());
    // Spread the peers' ticks over the period, as independent clients are.
    return new Promise<NodeJS.Timeout>((resolve) => setTimeout(() => resolve(setInterval(send, 1000 / HZ)), (i * 1000) / HZ / peers.length));
  });
  const started = await Promise.all(timers);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  for (const timer of started) clearInterval(timer);
  // Let the last poses arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** CPU milliseconds (user + system) a process has used. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function runPeers(hosts: RunningHost[], roomId: string, beside?: (roomId: string) => Promise<() => string>): Promise<{ lines: string[]; p99: number }> {
  const peers = await Promise.all(Array.from({ length: PEERS }, (_, i) => openPeer(hosts[i % 2]!.url, roomId, `peer${i}`)));
  process.stderr.write(`presence bench: ${PEERS} peers open in ${roomId}\n`);
  const extra = beside ? await beside(roomId) : null;
  const cpuBefore = hosts.map((h) => cpuMs(h.child.pid!));
  const wallBefore = now();
  await sendFor(peers);
  const seconds = (now() - wallBefore) / 1000;
  const cpu = hosts.reduce((sum, h, i) => sum + cpuMs(h.child.pid!) - cpuBefore[i]!, 0);
  for (const peer of peers) peer.socket.close();
  const all = peers.flatMap((p) => p.got);
  const col = (i: number) => all.map((g) => g[i]!);
  const expected = PEERS * (PEERS - 1) * HZ * SECONDS;
  const p99 = percentile(col(0), 99);
  const lines = [
    `  poses received: ${all.length} (${fmt((100 * all.length) / expected, 1)}% of ${expected} sent × receivers)`,
    `  send-to-receipt: p50 ${fmt(percentile(col(0), 50))} ms, p99 ${fmt(p99)} ms (target ≤ 100)`,
    `  sender to its host: p99 ${fmt(percentile(col(1), 99))} ms; host share (host, Redis, other host, receiver's socket): p50 ` +
      `${fmt(percentile(col(2), 50))} ms, p99 ${fmt(percentile(col(2), 99))} ms`,
    `  hosts' CPU: ${fmt(cpu / seconds / 10, 1)}% of a core, ${fmt((cpu * 1000) / Math.max(1, all.length), 1)} µs per pose delivered`,
  ];
  if (extra) lines.push(extra());
  return { lines, p99 };
}

/** A receiver behind a 100 kbit/s link: what it got and how old. */
async function throttledReceiver(host: RunningHost): Promise<(roomId: string) => Promise<() => string>> {
  const link = await startThrottledLink(host.url, 100_000 / 8);
  return async (roomId) => {
    const slow = await openPeer(link.url, roomId, 'throttled');
    return () => {
      slow.socket.close();
      void link.close();
      const ages = slow.got.map((g) => g[0]);
      return (
        `  throttled receiver (100 kbit/s): ${slow.got.length} poses in ${link.bytes} bytes, age on arrival p50 ${fmt(percentile(ages, 50), 0)} ms, ` +
        `p99 ${fmt(percentile(ages, 99), 0)} ms`
      );
    };
  };
}

async function healthP99(base: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    times.push(performance.now() - started);
  }
  return percentile(times, 99);
}

/** Closes with its code and reason (or says it was still open 5 s later). */
function closed(socket: WebSocket): Promise<string> {
  return new Promise((resolve) => {
    const late = setTimeout(() => resolve(`not closed 5 s after (state ${socket.readyState})`), 5000);
    socket.on('close', (code, reason) => {
      clearTimeout(late);
      resolve(`${code} ${String(reason)}`);
    });
  });
}

async function badInput(host: RunningHost): Promise<string[]> {
  process.stderr.write('presence bench: bad input\n');
  const idle = await healthP99(host.url, 200);
  const roomId = `bench-bad-${Date.now()}`;
  const open = async (name: string) => (await openPeer(host.url, roomId, name)).socket;
  const fast = await open('fast');
  const fastClosed = closed(fast);
  const flood = setInterval(() => fast.readyState === WebSocket.OPEN && fast.send(JSON.stringify({ head: placed() })), 1);
  const nan = await open('nan');
  const nanClosed = closed(nan);
  nan.send('{"head":{"position":[1e999,0,0],"orientation":[0,0,0,1]}}');
  const big = await open('big');
  const bigClosed = closed(big);
  big.send('x'.repeat(1 << 20));
  const busy = await healthP99(host.url, 200);
  clearInterval(flood);
  const long = await fetch(`${host.url}/api/rooms/${roomId}/events?name=${'n'.repeat(65)}`);
  return [
    `  1,000 Hz sender: closed ${await fastClosed}; NaN pose: closed ${await nanClosed}; 1 MB frame: closed ${await bigClosed}; ` +
      `a 65-character name: ${long.status}`,
    `  /healthz p99: idle ${fmt(idle)} ms, during the bad input ${fmt(busy)} ms (${fmt(busy / idle, 1)}×; target ≤ 2×)`,
  ];
}

/** An hour of one active peer's changes appended to a log: entries and bytes. */
export async function logPerPeerHour(): Promise<string> {
  const log = new MemoryRoomLog(3600);
  const layer = (i: number) => ({
    id: `layer${i}`,
    name: `layer ${i}`,
    kind: 'image',
    source: { function: 'ramp', params: { n: 64, scale: i } },
    visible: true,
    opacity: 0.8,
    blending: 'translucent',
    colormap: 'viridis',
    window: [0, 255],
    result: { result_id: 'f'.repeat(64), type: 'volume', data_url: `/api/rooms/lab/layers/layer${i}/data`, blob_id: 'f'.repeat(64) },
  });
  const scene = (version: number) => ({ version, layers: [layer(0), layer(1), layer(2)], active: 'layer0' });
  const view = { window: [10, 200], colormap: 'magma', opacity: 0.6, mode: 'volume', camera: { position: [1, 2, 3], target: [0, 0, 0], up: [0, 1, 0] } };
  const mark = (i: number) => ({ id: String(i), kind: 'line', points: [[1, 2, 3], [4, 5, 6]], label: 'crack', author: 'ada', version: 1, length: 5.2 });
  for (let s = 0; s < 3600; s += 5) {
    await log.append('lab', { type: 'view', by: 'ada', change: { view } });
    if (s % 60 === 0) await log.append('lab', { type: 'annotation', by: 'ada', change: { op: 'add', annotations: [mark(s)], version: s / 60 } });
    // A layer change writes the scene, then once more when its result arrives.
    if (s % 180 === 0) for (let k = 0; k < 2; k++) await log.append('lab', { type: 'scene', by: 'ada', change: { scene: scene(s / 90 + k) } });
  }
  const { entries } = await log.read('lab', 0, 10_000);
  const bytes = entries.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0);
  return `  one active peer-hour: ${entries.length} entries, ${fmt(bytes / 1024, 0)} KiB of JSON (${fmt(bytes / entries.length, 0)} B an entry)`;
}

/** Jumps to the middle of an hour of log (a target that writes nothing: the read and fold are what is timed). */
export async function seekHour(): Promise<string> {
  let clock = Date.now() - 3600_000;
  const log = new MemoryRoomLog(7200, () => clock);
  for (let i = 0; i < 36_000; i++, clock += 100) {
    const kind = i % 10;
    const mark = { id: String(i), kind: 'point', points: [[i, 0, 0]] };
    const scene = { version: i, layers: [{ id: 'scan', opacity: i / 36_000 }], active: 'scan' };
    if (kind === 0) await log.append('hour', { type: 'annotation', by: 'ada', change: { op: 'add', annotations: [mark] } });
    else if (kind === 5) await log.append('hour', { type: 'scene', by: 'ada', change: { scene } });
    else await log.append('hour', { type: 'view', by: 'ada', change: { view: { opacity: i / 36_000 } } });
  }
  const writes: string[] = [];
  const target = {
    setView: async () => void writes.push('view'),
    setScene: async () => void writes.push('scene'),
    setAnnotations: async () => void writes.push('annotations'),
    showEntry: async () => void writes.push('entry'),
    sayConversation: async () => void writes.push('conversation'),
    setConversation: async () => void writes.push('conversation'),
  };
  const recorder = { record: (roomId: string, type: LogType, change: Record<string, unknown>) => log.append(roomId, { type, by: 'host', change }) };
  const replays = new Replays({ log, target, recorder, warn: () => {} });
  const started = performance.now();
  await replays.ask('into', { kind: 'jump', from: 'hour', at: clock - 1800_000 });
  return `  an hour of log (36,000 entries): set to its middle in ${fmt(performance.now() - started, 0)} ms (target ≤ 1000; ${writes.length} writes)`;
}

/** A session replayed at speed 1 and 2: the largest offset error of each. */
export async function replayTiming(host: RunningHost): Promise<string> {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${host.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const views = async (roomId: string) =>
    ((await (await call('GET', `/api/rooms/${roomId}/log?limit=10000`)).json()) as { entries: { type: string; ts: number }[] }).entries.filter(
      (e) => e.type === 'view',
    );
  const from = `bench-session-${Date.now()}`;
  const gaps = [0, 150, 60, 300, 120, 500, 40, 250];
  for (const [i, gap] of gaps.entries()) {
    await new Promise((resolve) => setTimeout(resolve, gap));
    await call('PUT', `/api/rooms/${from}/view`, { opacity: (i + 1) / 100 });
  }
  const original = await views(from);
  const errors: string[] = [];
  for (const speed of [1, 2]) {
    const into = `bench-replay-${speed}-${Date.now()}`;
    await call('POST', `/api/rooms/${into}/replay`, { from, speed });
    const span = (original.at(-1)!.ts - original[0]!.ts) / speed;
    await new Promise((resolve) => setTimeout(resolve, span + 500));
    const played = (await views(into)).slice(-original.length);
    const worst = Math.max(...played.map((e, i) => Math.abs(e.ts - played[0]!.ts - (original[i]!.ts - original[0]!.ts) / speed)));
    errors.push(`speed ${speed}: largest error ${fmt(worst, 0)} ms`);
  }
  return `  ${original.length} changes over ${original.at(-1)!.ts - original[0]!.ts} ms replayed: ${errors.join(', ')} (target ≤ 50)`;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const redis = await startRedis();
  const specimens = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-presence-'));
  const common = ['--port', '0', '--specimens', specimens, '--no-viewer', '--log-level', 'warn', '--redis', redis.url, '--compute', '0'];
  const hosts = await Promise.all([spawnHost(common), spawnHost(common)]);
  const lines: string[] = [
    `${PEERS} peers at ${HZ} Hz on two hosts of a Redis service, ${SECONDS} s each run; load average ${loadavg().map((n) => fmt(n, 1)).join(' ')} on ` +
      `this machine`,
  ];
  try {
    const plain = await runPeers(hosts, `bench-live-${Date.now()}`);
    lines.push('1. the 24 alone:', ...plain.lines);
    const beside = await runPeers(hosts, `bench-live-slow-${Date.now()}`, await throttledReceiver(hosts[1]!));
    lines.push('2. the 24 beside one throttled receiver:', ...beside.lines);
    lines.push(`  the 24's p99: ${fmt(plain.p99)} ms alone, ${fmt(beside.p99)} ms beside the throttled one`);
    lines.push('3. bad input on one host:', ...(await badInput(hosts[0]!)));
    lines.push('4. the log per peer-hour:', await logPerPeerHour());
    lines.push('5. seeking:', await seekHour());
    lines.push('6. replay timing:', await replayTiming(hosts[0]!));
  } finally {
    await Promise.all(hosts.map((h) => h.stop()));
    await redis.stop();
  }
  return { name: 'presence: live poses across a Redis service', lines };
}
