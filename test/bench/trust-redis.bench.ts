/**
 * @module trust-redis.bench
 * A Redis service under faults (`npm run bench trust`), on real processes and the bench plugin:
 * (c) a 10 s outage of a Redis with AOF (`--appendonly yes --appendfsync everysec`), killed
 *     with SIGKILL while jobs accepted before it run or wait on a worker: how many of those
 *     jobs failed (target 0), the time from Redis back to every host ready, and to every job ended;
 * (d) rooms of 8 MiB results on a 64 MB evicting blob store (`--blob-store`, `--maxmemory 64mb
 *     --maxmemory-policy allkeys-lru`): every room computed on host A, then re-read on host B
 *     (almost all evicted by then, so computed again): all 200, bytes equal to A's, and the
 *     control Redis's `used_memory`. VITRINE_BENCH_TRUST_ROOMS sets the number of rooms:
 *     100 by default, which keeps the run near two minutes on the shared 2-core machine;
 *     `VITRINE_BENCH_TRUST_ROOMS=1000` is the full target (about ten times as long).
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { benchHostArgs, benchSpecimens, buildBenchPlugins, fmt, startBenchWorker } from './host-helpers.ts';

const ROOMS = Number(process.env.VITRINE_BENCH_TRUST_ROOMS ?? 100);
const OUTAGE_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** GET `url`: status and the sha256 of the body. */
function fetchHash(url: string): Promise<{ status: number; hash: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const sha = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        sha.update(chunk);
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, hash: sha.digest('hex'), bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function ready(host: RunningHost): Promise<boolean> {
  return (await fetch(`${host.url}/readyz`).catch(() => null))?.status === 200;
}

async function until(probe: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(50);
  }
  return false;
}

async function startJob(host: RunningHost, params: object, room: string): Promise<string> {
  const res = await fetch(`${host.url}/api/specimens/pulse/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ params, room_id: room }),
  });
  const body = (await res.json()) as { job_id?: string };
  if (!body.job_id) throw new Error(`/start answered ${res.status}: ${JSON.stringify(body)}`);
  return body.job_id;
}

async function status(host: RunningHost, id: string): Promise<{ status: string; error: string | null } | null> {
  const res = await fetch(`${host.url}/api/jobs/${id}/progress`).catch(() => null);
  return res?.status === 200 ? ((await res.json()) as { status: string; error: string | null }) : null;
}

async function outage(plugins: string, specimens: string, lines: string[]): Promise<void> {
  const redis = await startRedis({ args: ['--appendonly', 'yes', '--appendfsync', 'everysec'] });
  const common = ['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'error', '--redis', redis.url, '--compute', '0'];
  const hosts = [await spawnHost(common), await spawnHost(common)];
  const worker = await startBenchWorker(['--redis', redis.url, '--plugins', plugins]);
  try {
    // 8 jobs of 6 s on 2 threads: two run, the rest wait in the queue, when Redis goes.
    const ids: { id: string; host: RunningHost }[] = [];
    for (let i = 0; i < 8; i++) {
      const host = hosts[i % 2]!;
      ids.push({ id: await startJob(host, { seconds: 6, interval_ms: 100, busy: false, seed: i }, `outage-${i}`), host });
    }
    await sleep(1500); // AOF writes every second: the jobs' records are on disk
    await redis.kill();
    await sleep(OUTAGE_MS);
    await redis.restart();
    const back = performance.now();
    const allReady = await until(async () => (await Promise.all(hosts.map(ready))).every(Boolean), 60_000);
    const readyMs = performance.now() - back;
    const first = await fetchHash(`${hosts[0]!.url}/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":1000}')}&room_id=after-outage`);
    const finals = new Map<string, { status: string; error: string | null }>();
    await until(async () => {
      for (const { id, host } of ids) {
        if (finals.has(id)) continue;
        const s = await status(host, id);
        if (s && s.status !== 'running') finals.set(id, s);
      }
      return finals.size === ids.length;
    }, 120_000);
    const endedMs = performance.now() - back;
    const failed = [...finals.values()].filter((s) => s.status !== 'done');
    const failures = failed.length ? `: ${failed.map((f) => f.error).join('; ')}` : '';
    lines.push(
      `(c) 10 s outage of an AOF Redis (SIGKILL), 8 jobs of 6 s accepted before it (2 running, 6 queued on a 2-thread worker):`,
      `    accepted jobs failed: ${failed.length} of ${ids.length} (target 0)${failures}; ended: ${finals.size}`,
      `    Redis back → every host ready: ${allReady ? `${fmt(readyMs / 1000)} s` : 'not within 60 s'}; → every job ended: ${fmt(endedMs / 1000)} s`,
      `    first /data after ready (new room, a worker computes): ${first.status}`,
    );
  } finally {
    for (const host of hosts) await host.stop('SIGTERM');
    worker.kill('SIGTERM');
    await redis.stop();
  }
}

async function evictingBlobStore(plugins: string, specimens: string, lines: string[]): Promise<void> {
  const redis = await startRedis();
  const blobs: RedisServer = await startRedis({ args: ['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru'] });
  const common = [
    ...benchHostArgs(plugins, specimens, 'error'),
    '--redis',
    redis.url,
    '--blob-store',
    blobs.url,
    '--compute',
    '0',
    '--cache-max-bytes',
    String(256 * 1024 * 1024),
  ];
  const [a, b] = [await spawnHost(common), await spawnHost(common)];
  const worker = await startBenchWorker(['--redis', redis.url, '--blob-store', blobs.url, '--plugins', plugins]);
  const control = new Redis(redis.url);
  const blobAdmin = new Redis(blobs.url);
  try {
    const url = (host: RunningHost, i: number) =>
      `${host.url}/api/specimens/float_volume/data?params=${encodeURIComponent(JSON.stringify({ megabytes: 8, seed: i }))}&room_id=blob-${i}`;
    const firstHashes: string[] = [];
    const started = performance.now();
    let non200 = 0;
    let mismatched = 0;
    let bytes = 0;
    const pass = async (host: RunningHost, check: boolean) => {
      let next = 0;
      await Promise.all(Array.from({ length: 4 }, async () => {
        for (let i = next++; i < ROOMS; i = next++) {
          const got = await fetchHash(url(host, i));
          if (got.status !== 200) non200++;
          bytes = got.bytes;
          if (check) {
            if (got.hash !== firstHashes[i]) mismatched++;
          } else {
            firstHashes[i] = got.hash;
          }
        }
      }));
    };
    await pass(a, false);
    const firstPassS = (performance.now() - started) / 1000;
    await pass(b, true);
    const seconds = (performance.now() - started) / 1000;
    const used = Number(/used_memory:(\d+)/.exec(await control.info('memory'))![1]);
    const evicted = Number(/evicted_keys:(\d+)/.exec(await blobAdmin.info('stats'))![1]);
    const blobUsed = Number(/used_memory:(\d+)/.exec(await blobAdmin.info('memory'))![1]);
    lines.push(
      `(d) ${ROOMS} rooms of ${fmt(bytes / 1024 / 1024)} MiB results (float_volume 8), blob store 64 MB allkeys-lru, computed on A then re-read on B (4 ` +
      `at a time):`,
      `    non-200: ${non200} of ${2 * ROOMS}; B's bytes differing from A's: ${mismatched} of ${ROOMS}; blob store evicted ${evicted} keys, holds ` +
      `${fmt(blobUsed / 1024 / 1024)} MiB`,
      `    control Redis used_memory: ${fmt(used / 1024 / 1024)} MiB; A's pass ${fmt(firstPassS, 1)} s, both ${fmt(seconds, 1)} s`,
    );
  } finally {
    control.disconnect();
    blobAdmin.disconnect();
    await a.stop('SIGTERM');
    await b.stop('SIGTERM');
    worker.kill('SIGTERM');
    await redis.stop();
    await blobs.stop();
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const plugins = buildBenchPlugins();
  const specimens = benchSpecimens();
  await outage(plugins, specimens, lines);
  await evictingBlobStore(plugins, specimens, lines);
  return { name: 'A Redis service under faults', lines };
}
