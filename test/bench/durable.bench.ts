/**
 * @module durable.bench
 * `npm run bench durable`: what keeping a lone host's work on disk costs, each beside its
 * control in the same run.
 * 1. One annotation added at a time (5,000 on each host, in turn): latency p50/p99 on a host with
 *    a data folder (each answer after its commit is flushed) and on one with `--data-dir none`,
 *    and the disk flushes each acknowledged add takes, counted by strace (durable-flushes.ts).
 * 2. A kept hit: a layer's result (a 2,000-triangle mesh, about 50 KB) kept in the data folder,
 *    served by blob id by a host killed and started again (no computation since), at 50
 *    keep-alive connections, against a bare node:http server sending the same bytes
 *    (blobs-hits.ts: alternating rounds, the median ratio and its spread).
 * 3. Start-up on a folder holding 1,000 rooms, 100,000 annotations and 100 snapshots, beside
 *    start-up on an empty folder: milliseconds from spawn to `listening on`, and to the first
 *    answer (a room's list of marks).
 * 4. The host's resident memory with 10 GiB of published volumes in its folder, every one read
 *    after a restart, against `--cache-max-bytes` (durable-rss.ts).
 * 5. A four-layer room's first frame in a page before and after kill -9 and a restart, with the
 *    host's computations counted across the second (durable-room.ts).
 * 6. 32 clients adding marks at once: adds a second, the flushes they took (shared commits), and
 *    another room's reads meanwhile, on disk and in memory (durable-flood.ts).
 * DURABLE_QUICK=1 shrinks sections 2 to 5 for a quick try; DURABLE_ONLY=2,4 runs only those.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { compareHits, spread } from './blobs-hits.ts';
import { manyWriters } from './durable-flood.ts';
import { singleWrites } from './durable-flushes.ts';
import { computationsOf, keptRoomFrames } from './durable-room.ts';
import { publishedRss } from './durable-rss.ts';
import { startBaseline } from './hit-baselines.ts';
import { benchHostArgs, benchSpecimens, buildBenchPlugins, fmt, percentile, startBenchHost } from './host-helpers.ts';

const QUICK = process.env.DURABLE_QUICK === '1';
const ROOMS = QUICK ? 100 : 1000;
const PER_ROOM = 100;
const SNAPSHOTS = QUICK ? 10 : 100;
const START_RUNS = 3;
const HITS = QUICK ? { rounds: 2, seconds: 2, connections: 50 } : { rounds: 5, seconds: 5, connections: 50 };
const json = (body: unknown, method = 'POST') => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Section 2: a kept result served after a restart, against bare node:http. */
async function keptHits(dir: string): Promise<string[]> {
  const args = [...benchHostArgs(buildBenchPlugins(), benchSpecimens()), '--data-dir', path.join(dir, 'kept')];
  let host = await spawnHost(args);
  const layer = { id: 'mesh', source: { function: 'grid_mesh', params: { triangles: 2000 } } };
  const added = await fetch(`${host.url}/api/rooms/kept/layers`, json(layer));
  if (added.status !== 201) throw new Error(`adding the layer answered ${added.status}: ${await added.text()}`);
  const blobId = await waitFor(async () => {
    const scene = (await (await fetch(`${host.url}/api/rooms/kept/scene`)).json()) as { layers: { result?: { blob_id?: string } }[] };
    return scene.layers[0]?.result?.blob_id;
  }, 'the layer result');
  await host.stop('SIGKILL');
  host = await spawnHost(args);
  try {
    const blobUrl = `${host.url}/api/blobs/${blobId}`;
    const bare = await startBaseline('node', blobUrl);
    try {
      // The servers are this process's children: each one's CPU is read while the other idles.
      const hits = await compareHits(blobUrl, bare.url, process.pid, HITS);
      const computed = await computationsOf(host.url);
      const ratio = spread(hits.ratios);
      const us = (values: number[]) => fmt(spread(values).median, 0);
      const bytes = (await (await fetch(blobUrl)).arrayBuffer()).byteLength;
      return [
        `kept hit after kill -9 and a restart (a ${bytes}-byte mesh layer by blob id, ${HITS.connections} keep-alive connections, ` +
          `${HITS.seconds} s x ${HITS.rounds} alternating rounds): vitrine ${fmt(spread(hits.blob.rates).median, 0)} req/s, bare node:http ` +
          `${fmt(spread(hits.file.rates).median, 0)} req/s; ratio ${fmt(ratio.median)} (min ${fmt(ratio.min)}, max ${fmt(ratio.max)}; goal >= 0.9); ` +
          `server CPU per request ${us(hits.blob.nginxUs)} us vs ${us(hits.file.nginxUs)} us; computations since the restart: ${computed}`,
      ];
    } finally {
      bare.stop();
    }
  } finally {
    await host.stop();
  }
}

/** Fills a folder with ROOMS rooms of PER_ROOM marks and SNAPSHOTS snapshots. */
async function fill(url: string): Promise<void> {
  for (let room = 0; room < ROOMS; room++) {
    const batch = Array.from({ length: PER_ROOM }, (_, i) => ({ kind: 'point', points: [[i, room, 0]], label: `m${i}` }));
    const res = await fetch(`${url}/api/rooms/r${room}/annotations`, json(batch));
    if (res.status !== 201) throw new Error(`fill answered ${res.status}`);
    await res.arrayBuffer();
  }
  for (let room = 0; room < SNAPSHOTS; room++) {
    const res = await fetch(`${url}/api/rooms/r${room}/snapshots`, { method: 'POST' });
    if (res.status !== 201) throw new Error(`snapshot answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
}

/** Milliseconds from spawn to `listening on`, and to the first answer. */
async function startOn(folder: string): Promise<{ listening: number; answered: number }> {
  const started = performance.now();
  const host = await spawnHost(['--port', '0', '--specimens', 'none', '--plugins', 'none', '--log-level', 'warn', '--data-dir', folder]);
  const listening = performance.now() - started;
  const res = await fetch(`${host.url}/api/rooms/r${ROOMS - 1}/annotations`);
  const body = (await res.json()) as { annotations: unknown[] };
  const answered = performance.now() - started;
  await host.stop();
  if (folder.endsWith('start') && body.annotations.length !== PER_ROOM) throw new Error(`the last room lists ${body.annotations.length} marks`);
  return { listening, answered };
}

/** Section 3: start-up on a full folder beside an empty one, alternating. */
async function startUp(dir: string): Promise<string[]> {
  const store = path.join(dir, 'start');
  const filler = await startBenchHost(['--data-dir', store]);
  await fill(filler.url);
  await filler.stop();
  const empty = path.join(dir, 'empty');
  const runs: Record<'empty' | 'full', { listening: number; answered: number }[]> = { empty: [], full: [] };
  for (let i = 0; i < START_RUNS; i++) {
    runs.empty.push(await startOn(empty));
    runs.full.push(await startOn(store));
  }
  const line = (label: string, side: 'empty' | 'full', goal = '') => {
    const first = runs[side].map((r) => r.answered);
    return (
      `start-up on ${label}: listening after ${fmt(percentile(runs[side].map((r) => r.listening), 50), 0)} ms, first answer after ` +
      `${fmt(percentile(first, 50), 0)} ms (median of ${START_RUNS}; max ${fmt(Math.max(...first), 0)} ms)${goal}`
    );
  };
  return [
    line('an empty folder', 'empty'),
    line(`${ROOMS} rooms, ${ROOMS * PER_ROOM} annotations and ${SNAPSHOTS} snapshots`, 'full', ' (goal <= 3000 ms)'),
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [`load average at the start: ${readFileSync('/proc/loadavg', 'utf8').trim()}`];
  const only = process.env.DURABLE_ONLY?.split(',').map(Number);
  const sections = [singleWrites, keptHits, startUp, (dir: string) => publishedRss(dir, QUICK), (dir: string) => keptRoomFrames(dir, QUICK), manyWriters];
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-durable-'));
  try {
    for (const [i, section] of sections.entries()) if (!only || only.includes(i + 1)) lines.push(...(await section(dir)));
    lines.push(`load average at the end: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'durable: a lone host on disk beside one in memory', lines };
}
