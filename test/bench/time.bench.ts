/**
 * @module time.bench
 * `npm run bench time`: a vector field the size of Ascribe-XR's 5-D example (100 × 100 × 20
 * voxels, 3 components, 301 steps of float32: 722 MB), made by the `vector_field` fixture
 * function in a host process with its default result budget, then served one step at a time.
 * Server side (over loopback, no link limit):
 * 1. computing it (the plugin, then the checks and the ranges kept with it), and the host's
 *    memory holding it;
 * 2. one step, cold (its first request: a view onto the result, or direction colours and
 *    magnitudes made on the encode thread) and cached (asked again), with its bytes: one
 *    channel as float32 and as uint8, the magnitude, RGB8 direction colours, and what a Godot
 *    client gets without asking;
 * 3. every one of the 301 steps asked once in order (a playback the host has not seen), as
 *    RGB8 and as one uint8 channel: steps per second the host answers;
 * 4. the OME-Zarr store: the pyramid made one 3-D block at a time on first read;
 * 5. the same field on a host whose budget is smaller than it (`--cache-max-bytes` 512 MB):
 *    nothing is kept, so every step computes the whole field again.
 * 6. In the viewer (time-browser.ts: Chromium with SwiftShader, through a 5 MB/s link all its
 *    connections share): the bytes before the first frame; playing as RGB8 and as one
 *    component at an asked rate, steps shown per second and per step the time from its bytes
 *    to the canvas; and the bounds of the same run, the link alone and drawing alone. It runs
 *    after part 3, so the host has made every RGB8 step before (as for a room's second viewer).
 * TIME_ONLY=compute,steps,play,zarr,browser,small picks parts; TIME_PLAY_SECONDS (20) is how
 * long each playback runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { benchHostArgs, fmt, percentile } from './host-helpers.ts';
import { browserPart } from './time-browser.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
const STEPS = 301;

function setup(): { plugins: string; specimens: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-time-'));
  const plugins = path.join(root, 'plugins');
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/plugins'), '--out', plugins], { cwd: REPO });
  const specimens = path.join(root, 'specimens');
  mkdirSync(path.join(specimens, 'field'), { recursive: true });
  writeFileSync(path.join(specimens, 'field', 'specimen.json'), JSON.stringify({ display_name: 'field', type: 'volume', function_name: 'vector_field' }));
  return { plugins, specimens };
}

/** An answer read to its last byte: seconds from asking, bytes, headers. */
function timed(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ seconds: number; bytes: number; status: number; headers: Record<string, string | string[] | undefined> }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ seconds: (performance.now() - started) / 1000, bytes, status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const ms = (seconds: number) => `${fmt(seconds * 1000, 1)} ms`;
const MB = (bytes: number) => (bytes < 1e6 ? `${fmt(bytes / 1e3, 0)} kB` : `${fmt(bytes / 1e6, 2)} MB`);

/** The host's resident memory, in MB. */
function rss(host: RunningHost): string {
  const status = readFileSync(`/proc/${host.child.pid}/status`, 'utf8');
  return `${fmt(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024, 0)} MB`;
}

const data = (host: RunningHost, query: string) => `${host.url}/api/specimens/field/data?room_id=time&${query}`;

async function compute(host: RunningHost): Promise<string[]> {
  const first = await timed(data(host, ''));
  if (first.status !== 200) throw new Error(`computing the field answered ${first.status}`);
  const stats = (await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as { total_bytes: number; max_bytes: number };
  const info = (await (await fetch(`${host.url}/api/results/${first.headers['x-result-id'] as string}`)).json()) as { sizes: object; magnitude_max: number };
  return [
    `computed (plugin, checks, ranges) and first step answered in ${fmt(first.seconds)} s; sizes ${JSON.stringify(info.sizes)}, largest magnitude ` +
    `${fmt(info.magnitude_max, 3)}`,
    `held: ${MB(stats.total_bytes)} of a ${MB(stats.max_bytes)} budget (the default, a quarter of this machine's memory); host memory ${rss(host)}`,
  ];
}

const MODES: [string, string, Record<string, string>][] = [
  ['one channel, float32', 'c=0', {}],
  ['one channel, uint8', 'c=0&dtype=uint8', {}],
  ['magnitude, float32', 'c=magnitude', {}],
  ['direction as RGB8', 'c=rgb', {}],
  ['a Godot client, no options', '', GODOT],
  ['a Godot client, RGB8', 'c=rgb', GODOT],
];

async function steps(host: RunningHost): Promise<string[]> {
  const lines = ['one step: cold (first request) and cached (median of 5 repeats), over loopback'];
  let t = 7;
  for (const [what, query, headers] of MODES) {
    t += 11;
    const url = data(host, `t=${t}&${query}`);
    const cold = await timed(url, headers);
    const again = [];
    for (let i = 0; i < 5; i++) again.push((await timed(url, headers)).seconds);
    lines.push(`  ${what.padEnd(28)} ${MB(cold.bytes).padStart(9)}  cold ${ms(cold.seconds).padStart(9)}  cached ${ms(percentile(again, 50)).padStart(9)}`);
  }
  return lines;
}

async function play(host: RunningHost): Promise<string[]> {
  const lines = [`every step once, in order (${STEPS} steps the host has not made before)`];
  for (const [what, query] of [['RGB8', 'c=rgb'], ['one uint8 channel', 'c=1&dtype=uint8']] as const) {
    const times = [];
    let bytes = 0;
    const started = performance.now();
    for (let t = 0; t < STEPS; t++) {
      const got = await timed(data(host, `t=${t}&${query}`));
      times.push(got.seconds);
      bytes += got.bytes;
    }
    const total = (performance.now() - started) / 1000;
    lines.push(
      `  ${what.padEnd(18)} ${fmt(STEPS / total, 0)} steps/s (p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}), ${MB(bytes / STEPS)} ` +
      `per step`,
    );
  }
  return lines;
}

async function store(host: RunningHost): Promise<string[]> {
  const first = await timed(data(host, ''));
  const id = first.headers['x-result-id'] as string;
  const attrs = await timed(`${host.url}/api/results/${id}.zarr/.zattrs`);
  const zattrs = (await (await fetch(`${host.url}/api/results/${id}.zarr/.zattrs`)).json()) as { multiscales: { datasets: { path: string }[] }[] };
  const levels = zattrs.multiscales[0]!.datasets.length;
  const chunk = await timed(`${host.url}/api/results/${id}.zarr/0/150/2/0/0/0`);
  return [
    `OME-Zarr: pyramid of ${levels} levels (space halved per step and channel) made on first read in ${fmt(attrs.seconds)} s; one chunk (one step, one ` +
    `channel) ${MB(chunk.bytes)} gzip in ${ms(chunk.seconds)}`,
  ];
}

async function small(plugins: string, specimens: string): Promise<string[]> {
  const host = await spawnHost([...benchHostArgs(plugins, specimens), '--cache-max-bytes', String(512 * 2 ** 20)]);
  try {
    const times = [];
    for (let t = 0; t < 2; t++) times.push((await timed(data(host, `t=${t}&c=rgb`))).seconds);
    const stats = (await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as { total_entries: number };
    return [
      `budget of 512 MB (smaller than the field): each step computes the whole field again (${times.map((s) => `${fmt(s)} s`).join(', ')}); ` +
        `room entries held: ${stats.total_entries}`,
    ];
  } finally {
    await host.stop();
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const { plugins, specimens } = setup();
  const parts = (process.env.TIME_ONLY ?? 'compute,steps,play,zarr,browser,small').split(',');
  const lines = [
    `field: 100 x 100 x 20 voxels, 3 components, ${STEPS} steps, float32 (tczyx, 722 MB); load average at start ${loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')} on ${cpus().length} cores`,
  ];
  const host = await spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn', '--cache-ttl', '3600'], {
    timeoutMs: 120_000,
  });
  try {
    lines.push(...(await compute(host)));
    if (parts.includes('steps')) lines.push(...(await steps(host)));
    if (parts.includes('play')) lines.push(...(await play(host)));
    if (parts.includes('zarr')) lines.push(...(await store(host)));
    if (parts.includes('browser')) lines.push(...(await browserPart(host)));
    lines.push(`host memory after: ${rss(host)}`);
  } finally {
    await host.stop();
  }
  if (parts.includes('small')) lines.push(...(await small(plugins, specimens)));
  lines.push(`load average at end ${loadavg().map((l) => fmt(l, 1)).join(' ')}`);
  return { name: 'time and channels, server side', lines };
}
