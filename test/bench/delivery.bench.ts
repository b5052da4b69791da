/**
 * @module delivery.bench
 * `npm run bench delivery`: what a person in a headset waits for. A host serves the example
 * plugins and specimens; a throttled link (5 MB/s, a loopback proxy in this benchmark) stands
 * between it and the client. For a 256³ float32 volume, the Shepp-Logan phantom (the static
 * 64³ specimen and the computed 256³ one), a ~700k-triangle isosurface and a 100k-triangle
 * mesh (results cached first, so the figures are delivery alone):
 * 1. bytes and time to the last byte as plain clients get them, and as the Godot client gets
 *    them (its profile, gzip);
 * 2. the one-off cost of making that variant (its first request minus a later one, loopback);
 * 3. cache-hit throughput of a compressed variant against an identity hit (autocannon, 50
 *    connections, loopback);
 * 4. progress-poll p99 while 64 MiB variants are being made, against an idle host.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt, percentile } from './host-helpers.ts';
import { startThrottledLink } from './throttled-link.ts';

const LINK_BYTES_PER_SECOND = 5_000_000;
const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)', 'accept-encoding': 'gzip, deflate' };

interface Fetched {
  bytes: number;
  seconds: number;
  encoding: string;
  status: number;
}

function fetchMeasured(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({
          bytes,
          seconds: (performance.now() - started) / 1000,
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
          status: res.statusCode ?? 0,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function dataPath(id: string, params: Record<string, unknown> | null, roomId: string): string {
  const query = params ? `params=${encodeURIComponent(JSON.stringify(params))}&` : '';
  return `/api/specimens/${id}/data?${query}room_id=${roomId}`;
}

const MB = (bytes: number) => `${fmt(bytes / 1e6, bytes < 1e6 ? 3 : 1)} MB`;

const CASES: [string, string, Record<string, unknown> | null][] = [
  ['256³ float32 volume, smooth (bench smooth_volume)', 'smooth-volume', { size: 256 }],
  ['Shepp-Logan phantom, static 64³ uint8 with noise (ct-head-phantom)', 'ct-head-phantom', null],
  ['Shepp-Logan phantom, computed 256³ uint16 (shepp_logan_phantom, size 256)', 'shepp-logan-phantom', { size: 256 }],
  ['~700k-triangle isosurface (gyroid_surface, resolution 160)', 'gyroid-sheet', { resolution: 160 }],
  ['100k-triangle mesh (torus, 100 × 500 segments)', 'torus', { radial_segments: 100, tubular_segments: 500 }],
];

interface Hits {
  rps: number;
  p99: number;
  errors: number;
}

/** Identity and compressed hits of one URL, interleaved twice (the machine's load drifts). */
async function compareHits(url: string, headers: Record<string, string>): Promise<{ identity: Hits; gzip: Hits }> {
  const identity: Hits = { rps: 0, p99: 0, errors: 0 };
  const gzip: Hits = { rps: 0, p99: 0, errors: 0 };
  for (let round = 0; round < 2; round++) {
    for (const [sum, h] of [[identity, {}], [gzip, headers]] as const) {
      const result = await autocannon({ url, connections: 50, duration: 4, headers: h });
      sum.rps += result.requests.average / 2;
      sum.p99 = Math.max(sum.p99, result.latency.p99);
      sum.errors += result.errors + result.non2xx;
    }
  }
  return { identity, gzip };
}

/** Downloads `url` with curl in a child process; true when it answered 200. */
function downloadElsewhere(url: string, encoding: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `Accept-Encoding: ${encoding}`, url], (error, stdout) =>
      resolve(!error && stdout.trim() === '200'),
    );
  });
}

async function pollTimes(url: string, until: () => boolean, max: number): Promise<number[]> {
  const times: number[] = [];
  while (!until() && times.length < max) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

/** The example plugins with the bench plugin beside them, and the example specimens plus `smooth-volume`. */
function benchSetup(): { plugins: string; specimens: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-delivery-'));
  const plugins = path.join(root, 'plugins');
  const bench = path.join(root, 'bench-plugins');
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'plugins'), '--out', plugins], { cwd: REPO });
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/bench-plugins'), '--out', bench], { cwd: REPO });
  // A bundle folder copied into --plugins is deployed.
  cpSync(path.join(bench, 'bench'), path.join(plugins, 'bench'), { recursive: true });
  const specimens = path.join(root, 'specimens');
  cpSync(path.join(REPO, 'specimens'), specimens, { recursive: true });
  mkdirSync(path.join(specimens, 'smooth-volume'));
  writeFileSync(path.join(specimens, 'smooth-volume', 'specimen.json'), JSON.stringify({ display_name: 'Smooth volume', function_name: 'smooth_volume' }));
  return { plugins, specimens };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const { plugins, specimens } = benchSetup();
  const host = await spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--no-viewer', '--log-level', 'warn']);
  const link = await startThrottledLink(host.url, LINK_BYTES_PER_SECOND);
  const lines: string[] = [`link: ${LINK_BYTES_PER_SECOND / 1e6} MB/s; "Godot" = User-Agent GodotEngine/4.3 with Accept-Encoding gzip, deflate`];
  try {
    // 1 + 2. Bytes and time to the last byte; the one-off cost of each variant.
    for (const [label, id, params] of CASES) {
      const p = dataPath(id, params, `bench-${id}`);
      await fetchMeasured(`${host.url}${p}`); // computes and caches the entry
      const first = await fetchMeasured(`${host.url}${p}`, GODOT);
      const again = await fetchMeasured(`${host.url}${p}`, GODOT);
      const today = await fetchMeasured(`${link.url}${p}`);
      const godot = await fetchMeasured(`${link.url}${p}`, GODOT);
      lines.push(
        `${label}: today ${MB(today.bytes)} in ${fmt(today.seconds)} s; Godot ${MB(godot.bytes)} (${godot.encoding}) in ${fmt(godot.seconds)} s = ` +
        `${fmt(today.bytes / godot.bytes, 1)}x fewer bytes; ` +
          `making the variant once ${fmt(Math.max(0, first.seconds - again.seconds) * 1000, 0)} ms (a hit: ${fmt(again.seconds * 1000, 1)} ms)`,
      );
    }

    // 3. Hits: a cached gzip variant against identity bytes of the same entry, for the
    // 100k-triangle mesh and a small mesh (where per-request work, not bytes, sets the pace).
    const gzipHeaders = { 'accept-encoding': 'gzip' };
    for (const [label, params, roomId] of [
      ['100k-triangle mesh', { radial_segments: 100, tubular_segments: 500 }, 'bench-torus'],
      ['6k-triangle mesh (torus defaults)', {}, 'bench-torus-small'],
    ] as const) {
      const url = `${host.url}${dataPath('torus', params, roomId)}`;
      await fetchMeasured(url, gzipHeaders);
      const sizes = [await fetchMeasured(url), await fetchMeasured(url, gzipHeaders)];
      const { identity, gzip } = await compareHits(url, gzipHeaders);
      lines.push(
        `${label} cache hits, 50 connections, 2 × 4 s each (interleaved), loopback: identity (${MB(sizes[0]!.bytes)}) ${fmt(identity.rps, 0)} req/s p99 ` +
        `${identity.p99} ms; ` +
          `gzip variant (${MB(sizes[1]!.bytes)}) ${fmt(gzip.rps, 0)} req/s p99 ${gzip.p99} ms; ratio ${fmt(gzip.rps / identity.rps)} (target >= 0.9); ` +
          `errors ${identity.errors + gzip.errors}`,
      );
    }

    // 4. Progress polls while 64 MiB variants are made (gzip then br of fresh entries).
    const job = (await (
      await fetch(`${host.url}/api/specimens/torus/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"room_id":"bench-poll"}',
      })
    ).json()) as { job_id: string };
    const pollUrl = `${host.url}/api/jobs/${job.job_id}/progress?since=-1`;
    await pollTimes(pollUrl, () => false, 50);
    const idle = await pollTimes(pollUrl, () => false, 300);
    const busy: number[] = [];
    let made = 0;
    for (const seed of [101, 102]) {
      const p = `${host.url}${dataPath('smooth-volume', { size: 256, seed }, `bench-making-${seed}`)}`;
      await fetchMeasured(p);
      for (const encoding of ['gzip', 'br']) {
        // The request that makes the variant runs in another process (curl), so reading its
        // answer does not slow this process's polls.
        let done = false;
        const making = downloadElsewhere(p, encoding).finally(() => (done = true));
        busy.push(...(await pollTimes(pollUrl, () => done, 2000)));
        made += (await making) ? 1 : 0;
      }
    }
    const p99Idle = percentile(idle, 99);
    const p99Busy = percentile(busy, 99);
    lines.push(
      `progress polls: idle p50 ${fmt(percentile(idle, 50))} ms p99 ${fmt(p99Idle)} ms (${idle.length}); while ${made} variants of a 64 MiB volume were ` +
      `made p50 ${fmt(percentile(busy, 50))} ms p99 ${fmt(p99Busy)} ms (${busy.length}); p99 ratio ${fmt(p99Busy / p99Idle)} (target < 2)`,
    );
  } finally {
    await link.close();
    await host.stop('SIGTERM');
  }
  return { name: 'delivery to headsets over a 5 MB/s link', lines };
}
