/**
 * @module scenes.bench
 * `npm run bench scenes`: a room's scene on a Redis service of two `vitrine serve --redis`
 * hosts and a real redis-server, on loopback. 50 followers of one room (25 streams on each
 * host); a layer's opacity changed 200 times, each change on one host or the other in turn,
 * the next once every follower saw the last: from the PATCH sent to each follower's `scene`
 * event with that version (p50, p99, max, over 10,000 deliveries). The baseline, measured in
 * the same run on the same streams: the room's shared view changed the same way (`PUT
 * .../view`, the `view` event), the room event that existed before scenes. Then a leader
 * stepping a time-lapse layer (a published 20-step `tzyx` volume, every step held with its
 * result): each step (`PATCH {t}`) to each follower's `scene` event with that step. Then a late
 * joiner: its first three events and how long until it holds the whole scene.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SseParser } from '../../core/client/sse-parser.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { fmt, percentile } from './host-helpers.ts';

const FOLLOWERS = 50;
const CHANGES = 200;
const LAYERS = 8;
/** Steps of the time-lapse layer a leader steps through. */
const STEPS = 20;

interface Follower {
  events: { event: string; data: unknown; at: number }[];
  waiters: Set<() => void>;
  close(): void;
}

function follow(url: string): Promise<Follower> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
      const parser = new SseParser();
      const follower: Follower = { events: [], waiters: new Set(), close: () => req.destroy() };
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const at = performance.now();
        for (const message of parser.push(text)) follower.events.push({ event: message.event, data: JSON.parse(message.data) as unknown, at });
        for (const wake of [...follower.waiters]) wake();
      });
      resolve(follower);
    });
    req.on('error', reject);
    req.end();
  });
}

/** When `follower` got the first event from index `from` on matching `match` (waiting for it). */
function arrival(follower: Follower, match: (e: { event: string; data: unknown }) => boolean, from = 0): Promise<number> {
  return new Promise((resolve) => {
    let next = from;
    const look = () => {
      // Each event is looked at once, so a long stream costs the reader nothing more per change.
      for (; next < follower.events.length; next++) {
        const event = follower.events[next]!;
        if (!match(event)) continue;
        follower.waiters.delete(look);
        return resolve(event.at);
      }
    };
    follower.waiters.add(look);
    look();
  });
}

async function send(host: RunningHost, method: string, route: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${host.url}${route}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Per delivery: ms from the change sent to each follower's event of it; and each change's answer time. */
async function measure(
  hosts: RunningHost[],
  followers: Follower[],
  change: (i: number, host: RunningHost) => Promise<(e: { event: string; data: unknown }) => boolean>,
): Promise<{ latencies: number[]; answers: number[] }> {
  const latencies: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const from = followers.map((f) => f.events.length);
    const sent = performance.now();
    const match = await change(i, hosts[i % 2]!);
    answers.push(performance.now() - sent);
    const times = await Promise.all(followers.map((f, k) => arrival(f, match, from[k])));
    for (const at of times) latencies.push(at - sent);
  }
  return { latencies, answers };
}

const line = (what: string, ms: number[]) =>
  `${what}: p50 ${fmt(percentile(ms, 50))} ms, p99 ${fmt(percentile(ms, 99))} ms, max ${fmt(Math.max(...ms))} ms (${ms.length})`;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const redis = await startRedis();
  const specimens = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-scenes-'));
  mkdirSync(path.join(specimens, 'tri'));
  writeFileSync(path.join(specimens, 'tri', 'specimen.json'), JSON.stringify({ display_name: 'Triangle', type: 'mesh', data_file: 'tri.obj' }));
  writeFileSync(path.join(specimens, 'tri', 'tri.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
  const args = ['--port', '0', '--redis', redis.url, '--specimens', specimens, '--log-level', 'warn', '--no-viewer', '--pool-size', '1'];
  const hosts = await Promise.all([spawnHost(args), spawnHost(args)]);
  const room = `bench-${Date.now()}`;
  const followers: Follower[] = [];
  try {
    // A time-lapse published on one host (the service holds it for both): 20 steps of 16³.
    const clip = await fetch(`${hosts[0]!.url}/api/specimens/clip?filename=clip.npy&axes=tzyx`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes([STEPS, 16, 16, 16])),
    });
    if (!clip.ok) throw new Error(`publishing the time-lapse answered ${clip.status}: ${await clip.text()}`);
    const layers = [
      ...Array.from({ length: LAYERS - 1 }, (_, i) => ({ id: `layer${i}`, source: { specimen: 'tri' }, colormap: 'viridis', window: [0, 1000] })),
      { id: 'clip', source: { specimen: 'clip' }, t: 0 },
    ];
    await send(hosts[0]!, 'PUT', `/api/rooms/${room}/scene`, { layers });
    // Measured in a steady room: every layer's result written first (each is a scene write of its own).
    for (;;) {
      const scene = (await (await fetch(`${hosts[0]!.url}/api/rooms/${room}/scene`)).json()) as RoomScene;
      if (scene.layers.every((layer) => layer.result)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let i = 0; i < FOLLOWERS; i++) followers.push(await follow(`${hosts[i % 2]!.url}/api/rooms/${room}/events`));
    await Promise.all(followers.map((f) => arrival(f, (e) => e.event === 'scene')));

    // One change on each host first, timed apart: a host's first scene write loads its code
    // paths and scripts once; the measured changes are the ones after it.
    const firsts: number[] = [];
    for (const host of hosts) {
      const sent = performance.now();
      await send(host, 'PATCH', `/api/rooms/${room}/layers/${layers[0]!.id}`, { opacity: 0.999 });
      firsts.push(performance.now() - sent);
    }
    // Each change sets a value no earlier change set, so its event is told apart by content.
    const scenes = await measure(hosts, followers, async (i, host) => {
      const id = layers[i % layers.length]!.id;
      const opacity = (i + 1) / 1000;
      await send(host, 'PATCH', `/api/rooms/${room}/layers/${id}`, { opacity });
      return (e) => e.event === 'scene' && (e.data as RoomScene).layers.find((l) => l.id === id)?.opacity === opacity;
    });
    // A leader steps the time-lapse, one step after the other, on either host.
    const steps = await measure(hosts, followers, async (i, host) => {
      const t = (i + 1) % STEPS;
      await send(host, 'PATCH', `/api/rooms/${room}/layers/clip`, { t });
      return (e) => e.event === 'scene' && (e.data as RoomScene).layers.find((l) => l.id === 'clip')?.t === t;
    });
    const views = await measure(hosts, followers, async (i, host) => {
      const opacity = (i + 1) / 1000;
      await send(host, 'PUT', `/api/rooms/${room}/view`, { opacity });
      return (e) => e.event === 'view' && (e.data as { opacity?: number }).opacity === opacity;
    });

    const joined = performance.now();
    const late = await follow(`${hosts[1]!.url}/api/rooms/${room}/events`);
    const first = await arrival(late, (e) => e.event === 'scene');
    const firstThree = late.events.slice(0, 3);
    const scene = firstThree[2]?.data as RoomScene | undefined;
    late.close();
    const current = (await (await fetch(`${hosts[0]!.url}/api/rooms/${room}/scene`)).json()) as RoomScene;
    return {
      name: `scenes: a layer change to ${FOLLOWERS} followers of one room on two hosts of a Redis service`,
      lines: [
        line(`layer opacity (PATCH → scene event, ${LAYERS}-layer scene of ${Buffer.byteLength(JSON.stringify(current))} bytes)`, scenes.latencies),
        line('  the PATCH answered', scenes.answers),
        `  each host's first scene write, before them: ${firsts.map((ms) => `${fmt(ms)} ms`).join(', ')}`,
        line(`a leader's step of the ${STEPS}-step time-lapse layer, every step held (PATCH {t} → scene event)`, steps.latencies),
        line('  the PATCH answered', steps.answers),
        line('baseline: room view opacity (PUT → view event)', views.latencies),
        line('  the PUT answered', views.answers),
        `ratio p99 scene / view: ${fmt(percentile(scenes.latencies, 99) / percentile(views.latencies, 99))}`,
        `late joiner: first events ${firstThree.map((e) => e.event).join(', ')}; whole scene (version ${scene?.version}, ${scene?.layers.length} layers; ` +
        `current ${current.version}) after ${fmt(first - joined)} ms`,
      ],
    };
  } finally {
    for (const f of followers) f.close();
    await Promise.all(hosts.map((h) => h.stop()));
    await redis.stop();
  }
}
