/**
 * Remote OME-Zarr read in place (`npm run bench remote`): a generated remote of 1 TiB uint16
 * images (8192³, OME-Zarr v0.5, sharded, a full pyramid down to 32³; each shard made from its
 * coordinates when asked for) behind a 5 MB/s link with 40 ms added to every answer, and a
 * compiled host whose `--remote lab=` is that link. It measures, each figure beside its bound:
 *
 * 1. A page's first picture: the requests the page makes for it (the specimen's metadata, then
 *    its coarse `/data?max_dim=64` as a binary envelope), timed until the answer's last byte,
 *    with the bytes the remote sent for it. The page's decoding and drawing are not in it.
 * 2. A second page on the same view: what the remote sent for it (nothing, when it is kept).
 * 3. 8 pages panning at once, each over an image of its own so every step reads the remote
 *    (max_dim 64, then 128, then 256: the levels a page zooming in asks for), with `/healthz`
 *    asked every 50 ms from a thread of its own: its p99. Beside it, the host's own word on its
 *    main thread over the same stretch: the longest turn its event loop took (a timer's delay)
 *    and the longest busy stretch of its CPU profile (`node --cpu-prof`) with what took it. A
 *    p99 far above the longest busy stretch is a loaded machine (the host waited for a core),
 *    one near it a host that blocks.
 * 4. The remote stopped for 10 s: what a page gets meanwhile (502), and once it is back (200),
 *    without touching the host.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ENVELOPE_MEDIA_TYPE } from '../../core/envelope/media-type.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { busyStretches, describeStretches, monotonicMs, type Window } from './busy-stretches.ts';
import { fmt, percentile } from './host-helpers.ts';
import { LOOP_DELAY_PRELOAD, loopDelay } from './loop-delay.ts';
import { GENERATED_SIZE, startGeneratedRemote, type GeneratedRemote } from './generated-remote.ts';
import { healthzWhile } from './probe/kept-work.ts';
import { startThrottledLink } from './throttled-link.ts';

const LINK_BYTES_PER_SECOND = 5_000_000;
const LINK_DELAY_MS = 40;
const PAGES = 8;
const PAN_STEPS = [64, 128, 256];
const OUTAGE_MS = 10_000;
const MB = 1_000_000;

/** The page's requests for its first picture of `id` at `maxDim`: metadata, then the coarse volume; the status and seconds to the last byte. */
async function pageView(host: RunningHost, id: string, maxDim: number): Promise<{ status: number; seconds: number; bytes: number }> {
  const started = performance.now();
  const meta = await fetch(`${host.url}/api/specimens/${id}`, { headers: { accept: 'application/json' } });
  await meta.arrayBuffer();
  const data = await fetch(`${host.url}/api/specimens/${id}/data?max_dim=${maxDim}`, { headers: { accept: ENVELOPE_MEDIA_TYPE } });
  const body = await data.arrayBuffer();
  return { status: meta.status === 200 ? data.status : meta.status, seconds: (performance.now() - started) / 1000, bytes: body.byteLength };
}

async function publish(host: RunningHost, id: string): Promise<void> {
  const res = await fetch(`${host.url}/api/specimens/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ remote: `lab/${id}.ome.zarr` }),
  });
  const body = (await res.json()) as { shape?: number[]; levels?: unknown[] };
  if (res.status !== 201 || body.shape?.[0] !== GENERATED_SIZE) throw new Error(`publishing ${id}: ${res.status} ${JSON.stringify(body)}`);
}

const within = (ok: boolean) => (ok ? 'within' : 'OVER');

async function firstPictures(host: RunningHost, remote: GeneratedRemote): Promise<string[]> {
  remote.reset();
  const first = await pageView(host, 'big0', 64);
  const firstBytes = remote.sent.bytes;
  const firstRequests = remote.sent.requests;
  remote.reset();
  const second = await pageView(host, 'big0', 64);
  if (first.status !== 200 || second.status !== 200) throw new Error(`first pictures answered ${first.status}, ${second.status}`);
  return [
    `first picture (metadata + /data?max_dim=64, ${fmt(first.bytes / 1024, 0)} KiB envelope): ${fmt(first.seconds)} s ` +
      `(bound ≤ 2 s: ${within(first.seconds <= 2)}), ${fmt(firstBytes / MB, 3)} MB in ${firstRequests} reads from the remote ` +
      `(bound ≤ 2 MB: ${within(firstBytes <= 2 * MB)})`,
    `second page on the same view: ${fmt(second.seconds, 3)} s, ${remote.sent.bytes} bytes in ${remote.sent.requests} reads ` +
      `from the remote (bound 0: ${within(remote.sent.requests === 0)})`,
  ];
}

/** The host's main thread busy longer than this is listed (with what took it) after the run. */
const BUSY_LISTED_MS = 100;

async function panning(host: RunningHost, remote: GeneratedRemote, delays: string, window: Window): Promise<string[]> {
  remote.reset();
  await loopDelay(host, delays);
  window.from = monotonicMs();
  const started = performance.now();
  const statuses: number[] = [];
  const pages = Array.from({ length: PAGES }, async (_, k) => {
    for (const maxDim of PAN_STEPS) statuses.push((await pageView(host, `big${k + 1}`, maxDim)).status);
  });
  const healthz = await healthzWhile(host, Promise.all(pages), 50);
  const seconds = (performance.now() - started) / 1000;
  window.to = monotonicMs();
  const loop = await loopDelay(host, delays);
  const p99 = percentile(healthz, 99);
  const bad = statuses.filter((s) => s !== 200);
  return [
    `${PAGES} pages panning (max_dim ${PAN_STEPS.join(' → ')}, an image each): ${fmt(seconds, 1)} s, ` +
      `${fmt(remote.sent.bytes / MB, 1)} MB in ${remote.sent.requests} reads from the remote, ` +
      `${bad.length} answers not 200 (${[...new Set(bad)].join(', ') || 'none'})`,
    `/healthz while they pan: p50 ${fmt(percentile(healthz, 50), 1)} ms, p99 ${fmt(p99, 1)} ms ` +
      `(bound ≤ 250 ms: ${within(p99 <= 250)}), max ${fmt(Math.max(...healthz), 1)} ms (${healthz.length} asked); ` +
      `the host's ${loop}; machine load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  ];
}

async function outage(host: RunningHost, remote: GeneratedRemote): Promise<string[]> {
  await remote.stop();
  const stopped = performance.now();
  const during: number[] = [];
  while (performance.now() - stopped < OUTAGE_MS) {
    during.push((await pageView(host, 'big9', 64)).status);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await remote.start();
  const back = await pageView(host, 'big9', 64);
  const all502 = during.every((s) => s === 502);
  return [
    `remote stopped ${OUTAGE_MS / 1000} s: ${during.length} page views answered ${[...new Set(during)].join(', ')} ` +
      `(bound: 502 each: ${within(all502)}); remote back: ${back.status} in ${fmt(back.seconds)} s (bound 200: ${within(back.status === 200)})`,
  ];
}

/** The host's main thread while the pages panned, from its CPU profile: its longest busy stretch, and every one over the listed bound. */
function busyWhilePanning(profiles: string, window: Window): string[] {
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return ['host main thread while panning: no CPU profile written'];
  const profile = JSON.parse(readFileSync(path.join(profiles, file), 'utf8')) as Parameters<typeof busyStretches>[0];
  const all = busyStretches(profile, 0, window, Infinity);
  const busyMs = all.reduce((sum, s) => sum + s.ms, 0);
  const longest = all.reduce((a, b) => (b.ms > a.ms ? b : a), { at: 0, ms: 0, top: [] });
  const listed = all.filter((s) => s.ms > BUSY_LISTED_MS).sort((a, b) => b.ms - a.ms);
  // What the busy time went to, over every stretch: the functions with the most self time.
  const self = new Map<string, number>();
  for (const stretch of all) for (const { name, ms } of stretch.top) self.set(name, (self.get(name) ?? 0) + ms);
  const most = [...self].sort((a, b) => b[1] - a[1]).slice(0, 10);
  const top3 = (s: (typeof all)[number]) => ({ ...s, top: s.top.slice(0, 3) });
  return [
    `host main thread while panning: busy ${fmt(busyMs / 1000, 1)} s of ${fmt((window.to - window.from) / 1000, 1)} s, ` +
      `longest busy stretch ${fmt(longest.ms, 0)} ms; ${listed.length} over ${BUSY_LISTED_MS} ms (the 8 longest below)`,
    ...describeStretches(listed.slice(0, 8).map(top3)).map((l) => `  ${l}`),
    `  most self time: ${most.map(([name, ms]) => `${name} ${fmt(ms / 1000, 2)} s`).join('; ')}`,
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const remote = await startGeneratedRemote();
  const link = await startThrottledLink(remote.url, LINK_BYTES_PER_SECOND, { shared: true, delayMs: LINK_DELAY_MS });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-remote-'));
  const profiles = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-remote-prof-'));
  const delays = path.join(profiles, 'loop-delay.json');
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--import', LOOP_DELAY_PRELOAD];
  const args = ['--port', '0', '--data-dir', dataDir, '--remote', `lab=${link.url}/`, '--log-level', 'warn'];
  const host = await spawnHost(args, { nodeArgs, env: { LOOP_DELAY_FILE: delays } });
  const window: Window = { from: 0, to: 0 };
  try {
    for (let k = 0; k <= PAGES + 1; k++) await publish(host, `big${k}`);
    const lines = [
      `a generated remote: ${PAGES + 2} images of ${GENERATED_SIZE}³ uint16 (1 TiB each at level 0), OME-Zarr v0.5, ` +
        `shards of 2³ chunks of 64³ (zstd), levels down to 32³; the host reads it over a ${LINK_BYTES_PER_SECOND / MB} MB/s link ` +
        `with ${LINK_DELAY_MS} ms added to each answer; pages are the requests the page makes, not a browser`,
      ...(await firstPictures(host, remote)),
      ...(await panning(host, remote, delays, window)),
      ...(await outage(host, remote)),
    ];
    // The profile is written when the host stops.
    await host.stop('SIGTERM');
    lines.push(...busyWhilePanning(profiles, window));
    return { name: 'remote OME-Zarr read in place', lines };
  } finally {
    await host.stop('SIGKILL');
    await link.close();
    await remote.stop();
    rmSync(profiles, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
