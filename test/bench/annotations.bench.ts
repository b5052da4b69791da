/**
 * @module annotations.bench
 * `npm run bench annotations`: a room's marks against host processes on loopback.
 * 1. One peer's add → the `annotation` event at each of 50 followers of the room (each on its
 *    own connection): 300 adds one after another, latency per follower and add; on one host,
 *    then on a Redis service of two hosts with the adding peer on one and the followers split
 *    over both.
 * 2. 100,000 points in one room (10 requests of 10,000): the time to add them, a change in the
 *    full room, reading the list (JSON, CSV, the Neuroglancer point collection), and the bytes of
 *    the room's scene, view and entry before and after (the marks never travel in them).
 */
import { request } from 'node:http';
import { SseParser } from '../../core/client/sse-parser.ts';
import type { AnnotationEvent } from '../../core/wire/scene-types.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { fmt, percentile, startBenchHost } from './host-helpers.ts';

const FOLLOWERS = 50;
const ADDS = 300;
const BULK = 100_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Follower {
  /** Receive time (performance.now) by annotation id. */
  seen: Map<string, number>;
  close(): void;
}

/** A follower of the room's events on its own connection; resolves once `scene` (the last of the opening events) came. */
function follow(url: string): Promise<Follower> {
  return new Promise((resolve, reject) => {
    const seen = new Map<string, number>();
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      const parser = new SseParser();
      let opened = false;
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const at = performance.now();
        for (const message of parser.push(text)) {
          if (message.event === 'annotation') seen.set((JSON.parse(message.data) as AnnotationEvent).annotation.id, at);
          if (!opened && message.event === 'scene') {
            opened = true;
            resolve({ seen, close: () => req.destroy() });
          }
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function post(url: string, body: unknown): Promise<{ id: string }[]> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  const answer = (await res.json()) as { id?: string; annotations?: { id: string }[] };
  return answer.annotations ?? [{ id: answer.id! }];
}

async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(2);
  }
}

/** Adds ADDS points one after another on `writer`, followers on `readers` in turn; the latencies of every (add, follower). */
async function fanOut(writer: RunningHost, readers: RunningHost[], room: string): Promise<number[]> {
  const followers = await Promise.all(Array.from({ length: FOLLOWERS }, (_, i) => follow(`${readers[i % readers.length]!.url}/api/rooms/${room}/events`)));
  const target = `${writer.url}/api/rooms/${room}/annotations`;
  await post(target, { kind: 'point', points: [[0, 0, 0]] });
  const latencies: number[] = [];
  for (let i = 0; i < ADDS; i++) {
    const sent = performance.now();
    const [{ id }] = (await post(target, { kind: 'point', points: [[i, i, i]], label: 'bench' })) as [{ id: string }];
    await until(() => followers.every((f) => f.seen.has(id)), `add ${id} at every follower`);
    for (const f of followers) latencies.push(f.seen.get(id)! - sent);
    await sleep(5);
  }
  for (const f of followers) f.close();
  return latencies;
}

const stats = (xs: number[]) => `p50 ${fmt(percentile(xs, 50), 1)} ms, p99 ${fmt(percentile(xs, 99), 1)} ms, max ${fmt(Math.max(...xs), 1)} ms`;

async function bytesOf(url: string): Promise<number> {
  return (await (await fetch(url)).arrayBuffer()).byteLength;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const host = await startBenchHost();
  try {
    const one = await fanOut(host, [host], 'bench-fan');
    lines.push(
      `one host, ${FOLLOWERS} followers, ${ADDS} adds one after another: ` +
        `add sent → each follower's \`annotation\` event ${stats(one)} (${one.length} samples)`,
    );

    // ---- 2. 100,000 points in one room ------------------------------------------------------
    const room = `${host.url}/api/rooms/bench-bulk`;
    await fetch(`${room}/layers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'volume', source: { function: 'float_volume', params: {} } }),
    });
    await fetch(`${room}/view`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ colormap: 'magma' }) });
    const before = { scene: await bytesOf(`${room}/scene`), view: await bytesOf(`${room}/view`), entry: await bytesOf(`${room}/entry`) };
    const added = await timed(async () => {
      for (let k = 0; k < BULK / 10_000; k++)
        await post(
          `${room}/annotations`,
          Array.from({ length: 10_000 }, (_, i) => ({ kind: 'point', points: [[k, i * 0.65, i * 2]], label: i % 10 === 0 ? 'seed' : 'cell' })),
        );
    });
    const after = { scene: await bytesOf(`${room}/scene`), view: await bytesOf(`${room}/view`), entry: await bytesOf(`${room}/entry`) };
    lines.push(`${BULK.toLocaleString('en')} points added in 10 requests of 10,000: ${fmt(added.ms / 1000, 2)} s`);
    lines.push(
      `bytes before → after: scene ${before.scene} → ${after.scene}, view ${before.view} → ${after.view}, entry ${before.entry} → ${after.entry} ` +
      `(unchanged: the marks are not in them)`,
    );
    const change = await timed(() =>
      fetch(`${room}/annotations/50000`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"label":"middle"}' }),
    );
    lines.push(`a change in the full room: ${fmt(change.ms, 1)} ms`);
    for (const [what, path] of [
      ['list (JSON)', '/annotations'],
      ['list (CSV)', '/annotations?format=csv'],
      ['Neuroglancer point cell', '/annotations/precomputed/point/spatial0/0_0_0'],
    ] as const) {
      const first = await timed(() => bytesOf(`${room}${path}`));
      const again = await timed(() => bytesOf(`${room}${path}`));
      lines.push(`${what}: ${fmt(first.value / 2 ** 20, 1)} MiB, first read ${fmt(first.ms, 0)} ms, again at the same version ${fmt(again.ms, 0)} ms`);
    }
  } finally {
    host.child.kill('SIGTERM');
  }

  // ---- 1b. a Redis service of two hosts --------------------------------------------------------
  const redis = await startRedis();
  const [a, b] = await Promise.all([
    spawnHost(['--port', '0', '--log-level', 'warn', '--redis', redis.url, '--no-viewer']),
    spawnHost(['--port', '0', '--log-level', 'warn', '--redis', redis.url, '--no-viewer']),
  ]);
  try {
    const two = await fanOut(a, [a, b], 'bench-fan-redis');
    lines.push(`Redis service, two hosts (adds on one, ${FOLLOWERS} followers over both), ${ADDS} adds: add sent → each follower's event ${stats(two)}`);
  } finally {
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    await redis.stop();
  }
  return { name: 'annotations', lines };
}
