/**
 * @module lod-build
 * The build part of `npm run bench meshes`: every segment's level set asked of a host, four at
 * a time, with what the build costs the host beside it (wall and CPU time, `/healthz` from a
 * thread of its own, the event-loop delay, the main thread's CPU and its busy stretches from
 * the host's `--cpu-prof`, resident memory), and the HTTP helpers the bench shares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { cpuSeconds, mainThreadCpuSeconds } from '../helpers/process-cpu.ts';
import { rssMiB } from '../helpers/process-rss.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { busyStretches, describeStretches, monotonicMs, type Window } from './busy-stretches.ts';
import { fmt, percentile } from './host-helpers.ts';
import { loopDelay } from './loop-delay.ts';
import { healthzWhile } from './probe/kept-work.ts';

export interface Sidecar {
  levels: number;
  level_triangles: number[];
  coarsest: { glb: string; bytes: number; triangles: number }[];
}

export function fetchTimed(url: string, init: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {}) {
  const started = performance.now();
  return new Promise<{ body: Buffer; ms: number; status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), ms: performance.now() - started, status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Runs `work` on `items`, `width` at a time. */
export async function inTurns<T, V>(items: T[], width: number, work: (item: T) => Promise<V>): Promise<V[]> {
  const out: V[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at]!);
    }
  }));
  return out;
}

export interface BuildFigures {
  sidecars: Sidecar[];
  seconds: number;
  /** The host's CPU seconds over the build, every thread. */
  cpu: number;
  window: Window;
  lines: string[];
}

/** Every segment's sidecar asked of `base` (the result's `meshes/`), four at a time: the whole build. */
export async function measureBuild(host: RunningHost, base: string, ids: number[], delays: string): Promise<BuildFigures> {
  const pid = host.child.pid!;
  await loopDelay(host, delays);
  let rss = rssMiB(pid);
  const sampler = setInterval(() => (rss = Math.max(rss, rssMiB(pid))), 200);
  const [cpu0, main0, from, started] = [cpuSeconds(pid), mainThreadCpuSeconds(pid), monotonicMs(), performance.now()];
  const building = inTurns(ids, 4, async (segment) => JSON.parse((await fetchTimed(`${base}/${segment}.json`)).body.toString()) as Sidecar);
  // Every 100 ms: asked back to back, /healthz would itself keep the event loop busy.
  const healthz = await healthzWhile(host, building, 100);
  const sidecars = await building;
  const seconds = (performance.now() - started) / 1000;
  const [cpu, main, window] = [cpuSeconds(pid) - cpu0, mainThreadCpuSeconds(pid) - main0, { from, to: monotonicMs() }];
  clearInterval(sampler);
  const level0 = sidecars.reduce((n, s) => n + s.level_triangles[0]!, 0);
  const all = sidecars.reduce((n, s) => n + s.level_triangles.reduce((a, b) => a + b, 0), 0);
  const coarsest = sidecars.map((s) => s.level_triangles.at(-1)!).sort((a, b) => a - b);
  const lines = [
    `${ids.length} segments: level 0 ${fmt(level0 / 1e6)} M triangles, all levels ${fmt(all / 1e6)} M`,
    `coarsest level of each segment: min ${coarsest[0]}, median ${coarsest[coarsest.length >> 1]}, max ${coarsest.at(-1)} triangles ` +
      `(target: about 2,048, at least 512 where the surface has more)`,
    `build: ${fmt(seconds, 1)} s, ${fmt(level0 / seconds / 1e3, 0)} k level-0 triangles/s; the host's CPU ${fmt(cpu, 1)} s ` +
      `(${fmt(level0 / cpu / 1e3, 0)} k level-0 triangles per CPU second), its main thread's ${fmt(main, 1)} s`,
    `/healthz during the build: p50 ${fmt(percentile(healthz, 50), 0)} ms, max ${fmt(healthz.reduce((a, b) => Math.max(a, b), 0), 0)} ms (target ≤ 250; ` +
      `${healthz.length} asked); ${await loopDelay(host, delays)}; host RSS at most ${fmt(rss, 0)} MiB`,
  ];
  return { sidecars, seconds, cpu, window, lines };
}

/** The host's main-thread stretches busy over 40 ms within `window`, from its `--cpu-prof` profile in `dir`. */
export function mainThreadStretches(dir: string, pid: number, window: Window | null): string[] {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile') && name.includes(`.${pid}.0.`));
  if (!file || !window) return ['the host main thread profile: none written'];
  const stretches = busyStretches(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), 40, window);
  return [`the host's main thread busy over 40 ms during the build: ${stretches.length}`, ...describeStretches(stretches).map((l) => `  ${l}`)];
}
