/**
 * @module scale.bench
 * The Redis service against the in-memory host, measured in one run on this machine
 * (`npm run bench scale`): a real redis-server, two `vitrine serve --redis --compute 0` hosts,
 * one `vitrine worker`, and a lone in-memory host, all on the bench plugin.
 * 1. cache hits (100k-triangle mesh envelope, 50 connections) served from a Redis host's
 *    memory LRU, against the in-memory host (target ≥ 0.9), and Redis commands per hit;
 * 2. a cold host reading a 256 MiB result from Redis: the blob store's read (MiB/s; target
 *    ≥ 400) against a bare pipelined ioredis read of the same chunks, and the whole /data
 *    download from a host that never saw the result (target ≥ 0.8 of the store read) against
 *    pass-throughs of the same chunks (plain-blob-relay.mjs), the fewest-copies one being the
 *    physical bound of that trip, which the store read does not make (it ends in memory);
 * 3. progress-poll p50/p99 for a running job in Redis mode against the in-memory host
 *    (target ≤ 2x), and Redis commands per poll;
 * 4. small mesh hits (a 2,000-triangle envelope of about 50 KB, 50 connections) on a Redis
 *    host, whose room pointer it holds, against the in-memory host (target ≥ 0.9; the median
 *    of 3 alternating rounds);
 * 5. Redis commands per second with 5,000 job streams (BENCH_JOB_STREAMS) open on a quiet running job (target < 50),
 *    everything else of the service included (heartbeats, health pings, BullMQ).
 */
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { RedisBlobStore } from '../../core/blobs/redis-blob-store.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { benchSpecimens, buildBenchPlugins, download, fmt, percentile, startBenchWorker } from './host-helpers.ts';

const MiB = 1024 * 1024;

/** Starts plain-blob-relay.mjs against `redisUrl`; resolves with its URL and a stop function. */
function startPlainBlobRelay(redisUrl: string, env: NodeJS.ProcessEnv = {}): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('plain-blob-relay.mjs', import.meta.url)), redisUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve({ url: match[1]!, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`plain-blob-relay.mjs exited with ${code}`)));
  });
}

/**
 * Downloads `url` in a child process of its own, counting bytes without keeping them: the
 * client of a large transfer then has a fresh heap of its own, not this process's, which
 * holds everything the load generator gathered (its garbage collection slowed every read).
 */
function downloadInChild(url: string): Promise<{ bytes: number; seconds: number }> {
  const script = `const http = require('node:http'); const t = performance.now(); http.get(process.argv[1], (res) => { let bytes = 0; res.on('data', (c) ` +
    `=> (bytes += c.length)); res.on('end', () => console.log(JSON.stringify({ bytes, seconds: (performance.now() - t) / 1000 }))); });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, url], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as { bytes: number; seconds: number }),
    );
  });
}

/** Commands Redis has processed so far (the INFO call itself adds one). */
async function commandsProcessed(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)![1]);
}

async function post(url: string, body: unknown): Promise<{ job_id: string }> {
  return (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as {
    job_id: string;
  };
}

async function pollTimes(host: string, jobId: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await (await fetch(`${host}/api/jobs/${jobId}/progress?since=-1`)).arrayBuffer();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const redis = await startRedis();
  const plugins = buildBenchPlugins();
  const specimens = benchSpecimens();
  const common = ['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn'];
  const hosts: RunningHost[] = [];
  const worker = await startBenchWorker(['--redis', redis.url, '--plugins', plugins]);
  const admin = new Redis(redis.url);
  try {
    const memory = await spawnHost([...common, '--pool-size', '2']);
    const a = await spawnHost([...common, '--redis', redis.url, '--compute', '0']);
    const b = await spawnHost([...common, '--redis', redis.url, '--compute', '0']);
    hosts.push(memory, a, b);

    // 1. Cache hits from the host's memory LRU vs the in-memory host.
    const mesh = (base: string) => `${base}/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":100000}')}&room_id=bench-mesh`;
    const meshBytes = (await download(mesh(memory.url))).bytes;
    await download(mesh(a.url));
    const cannon = (url: string) => autocannon({ url, connections: 50, duration: 8, pipelining: 1 });
    const memRun = await cannon(mesh(memory.url));
    const before = await commandsProcessed(admin);
    const redisRun = await cannon(mesh(a.url));
    const perHit = ((await commandsProcessed(admin)) - before - 1) / redisRun.requests.total;
    lines.push(
      `cache hits, ${meshBytes}-byte mesh envelope, 50 connections, 8 s: in-memory host ${fmt(memRun.requests.average, 0)} req/s p99 ${memRun.latency.p99} ` +
      `ms; Redis host (memory LRU) ${fmt(redisRun.requests.average, 0)} req/s p99 ${redisRun.latency.p99} ms; ratio ` +
      `${fmt(redisRun.requests.average / memRun.requests.average)} (target >= 0.9); Redis commands per hit ${fmt(perHit, 2)}; errors ` +
      `${redisRun.errors + redisRun.non2xx}`,
    );

    // 2. A 256 MiB result read back from Redis by a host that never saw it.
    const volume = (base: string) => `${base}/api/specimens/float_volume/data?params=${encodeURIComponent('{"megabytes":256}')}&room_id=bench-volume`;
    const computed = await download(volume(a.url));
    const hash = (await admin.hget('vitrine:room:bench-volume', 'hash'))!;
    const ref = { hash, meta: (await admin.get(`vitrine:blob:${hash}`))! };
    const { chunks, header } = JSON.parse(ref.meta) as { chunks: number; header: { byteLength: number } };
    // The store's read, a bare pipelined GET, the two pass-throughs and a fresh cold host take
    // turns within each of three rounds, so that a machine slowing down or speeding up during
    // the run weighs on all of them alike; best of each, and each round's own ratio.
    // The physical bound of the whole trip (Redis -> a process -> HTTP -> this client) on this
    // machine: plain-blob-relay.mjs forwards the same chunks with nothing else to do.
    const passThrough = await startPlainBlobRelay(redis.url);
    // The same pass-through under the host's allocator setting (each large buffer a mapping of
    // its own, returned on free), the memory policy the host runs with, keeping a copy of the
    // bytes as the host keeps the result for its next reader: the bound for a cold host.
    const passThroughMapped = await startPlainBlobRelay(redis.url, ALLOCATOR_ENV);
    const storeRates: number[] = [];
    const bareRates: number[] = [];
    const coldRates: number[] = [];
    const bareTripRates: number[] = [];
    const mappedTripRates: number[] = [];
    const directTripRates: number[] = [];
    let warmRate = 0;
    try {
      for (let i = 0; i < 3; i++) {
        let t = performance.now();
        const result = await new RedisBlobStore(admin, null).get(ref);
        if (!result) throw new Error('the blob is gone');
        storeRates.push(256 / ((performance.now() - t) / 1000));
        t = performance.now();
        const pipeline = admin.pipeline();
        for (let c = 0; c < chunks; c++) pipeline.getBuffer(`vitrine:blob:${hash}:${c}`);
        await pipeline.exec();
        bareRates.push(256 / ((performance.now() - t) / 1000));
        const bare = await downloadInChild(`${passThrough.url}/${hash}?chunks=${chunks}`);
        bareTripRates.push(bare.bytes / MiB / bare.seconds);
        const mapped = await downloadInChild(`${passThroughMapped.url}/${hash}?chunks=${chunks}&keep=${header.byteLength}`);
        mappedTripRates.push(mapped.bytes / MiB / mapped.seconds);
        const direct = await downloadInChild(`${passThroughMapped.url}/${hash}?chunks=${chunks}&direct=${header.byteLength}`);
        directTripRates.push(direct.bytes / MiB / direct.seconds);
        const cold = await spawnHost(
          [...common, '--redis', redis.url, '--compute', '0'],
          process.env.BENCH_COLD_PROFILE ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_COLD_PROFILE}`] } : {},
        );
        // A host that never saw the result, not one that never served: a catalog and a small
        // mesh first, as any host in service has (a process in its first second still
        // compiles and collects its start-up in the background, costing the read a fifth).
        await download(`${cold.url}/api/specimens/`);
        await download(`${cold.url}/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":2000}')}&room_id=bench-cold-warmup`);
        const coldDownload = await downloadInChild(volume(cold.url));
        coldRates.push(coldDownload.bytes / MiB / coldDownload.seconds);
        const warmDownload = await downloadInChild(volume(cold.url));
        warmRate = Math.max(warmRate, warmDownload.bytes / MiB / warmDownload.seconds);
        // Gone before the next round, its memory with it: three idle hosts each holding the
        // 256 MiB would leave every later round fresh memory to fault in (costly in this VM).
        await cold.stop();
      }
    } finally {
      passThrough.stop();
      passThroughMapped.stop();
    }
    const best = (xs: number[]) => Math.max(...xs);
    const each = (xs: number[]) => xs.map((x) => fmt(x, 0)).join(', ');
    const perRound = (xs: number[], ys: number[]) => xs.map((x, i) => fmt(x / ys[i]!)).join(', ');
    lines.push(
      `256 MiB result from Redis (64 chunks of 4 MiB), best of 3: blob store read ${fmt(best(storeRates), 0)} MiB/s (target >= 400; each: ` +
      `${each(storeRates)}); bare pipelined GET of the same chunks ${fmt(best(bareRates), 0)} MiB/s (each: ${each(bareRates)}); ratio ` +
      `${fmt(best(storeRates) / best(bareRates))}`,
    );
    lines.push(
      `same result as /data (${computed.bytes} bytes), best of 3: from a cold host ${fmt(best(coldRates), 0)} MiB/s end to end (sent as its chunks arrive ` +
      `from Redis; each: ${each(coldRates)}), ratio to the store read ${fmt(best(coldRates) / best(storeRates))} (target >= 0.8; each round: ` +
      `${perRound(coldRates, storeRates)}); again from its LRU ${fmt(warmRate, 0)} MiB/s`,
      `bounds of that trip (Redis -> one process -> HTTP -> this client), same rounds (plain-blob-relay.mjs): the fewest-copies pass-through (reads land ` +
      `in the memory kept, written from there; the host's allocator setting) ${fmt(best(directTripRates), 0)} MiB/s (each: ${each(directTripRates)}), its ` +
      `ratio to the store read ${fmt(best(directTripRates) / best(storeRates))}, cold host / it ${fmt(best(coldRates) / best(directTripRates))} (each ` +
      `round: ${perRound(coldRates, directTripRates)}); through ioredis keeping nothing ${fmt(best(bareTripRates), 0)} MiB/s (each: ` +
      `${each(bareTripRates)}); through ioredis keeping a copy, under the allocator setting ${fmt(best(mappedTripRates), 0)} MiB/s (each: ` +
      `${each(mappedTripRates)})`,
    );

    // 3. Progress polls of a running job: in-memory host vs Redis host (the job on the worker).
    const memJob = await post(`${memory.url}/api/specimens/burn/start`, { params: { seconds: 60, seed: 1 }, room_id: 'poll-mem' });
    await pollTimes(memory.url, memJob.job_id, 50);
    const memPolls = await pollTimes(memory.url, memJob.job_id, 300);
    await fetch(`${memory.url}/api/jobs/${memJob.job_id}`, { method: 'DELETE' });
    const redisJob = await post(`${a.url}/api/specimens/burn/start`, { params: { seconds: 60, seed: 1 }, room_id: 'poll-redis' });
    await pollTimes(b.url, redisJob.job_id, 50);
    const pollsBefore = await commandsProcessed(admin);
    const redisPolls = await pollTimes(b.url, redisJob.job_id, 300);
    const perPoll = ((await commandsProcessed(admin)) - pollsBefore - 1) / 300;
    await fetch(`${b.url}/api/jobs/${redisJob.job_id}`, { method: 'DELETE' });
    const p99 = (xs: number[]) => percentile(xs, 99);
    lines.push(
      `progress polls of a running job (300 each, one CPU-bound job running): in-memory p50 ${fmt(percentile(memPolls, 50))} ms p99 ${fmt(p99(memPolls))} ` +
      `ms; Redis mode (job on the worker, polled on the other host) p50 ${fmt(percentile(redisPolls, 50))} ms p99 ${fmt(p99(redisPolls))} ms; p99 ratio ` +
      `${fmt(p99(redisPolls) / p99(memPolls))} (target <= 2); Redis commands per poll ${fmt(perPoll, 2)}`,
    );

    // 4. Small mesh hits: the room pointer held by the Redis host, vs the in-memory host.
    const small = (base: string) => `${base}/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":2000}')}&room_id=bench-small`;
    const smallBytes = (await download(small(memory.url))).bytes;
    await download(small(a.url));
    await download(small(a.url));
    // Alternating rounds, the median ratio: the machine is shared and one run swings widely.
    const smallRounds: { mem: autocannon.Result; redis: autocannon.Result; perHit: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const memFirst = i % 2 === 0 ? await cannon(small(memory.url)) : null;
      const smallBefore = await commandsProcessed(admin);
      const redisRun = await cannon(small(a.url));
      const perHit = ((await commandsProcessed(admin)) - smallBefore - 1) / redisRun.requests.total;
      smallRounds.push({ mem: memFirst ?? (await cannon(small(memory.url))), redis: redisRun, perHit });
    }
    const smallRatios = smallRounds.map((r) => r.redis.requests.average / r.mem.requests.average);
    const smallMedian = [...smallRatios].sort((x, y) => x - y)[1]!;
    const { mem: smallMem, redis: smallRedis, perHit: perSmallHit } = smallRounds[smallRatios.indexOf(smallMedian)]!;
    lines.push(
      `small mesh hits, ${smallBytes}-byte envelope, 50 connections, 8 s: in-memory host ${fmt(smallMem.requests.average, 0)} req/s p99 ` +
      `${smallMem.latency.p99} ms; Redis host ${fmt(smallRedis.requests.average, 0)} req/s p99 ${smallRedis.latency.p99} ms; ratio ${fmt(smallMedian)} ` +
      `(target >= 0.9; median of 3 alternating rounds: ${smallRatios.map((r) => fmt(r)).join(', ')}); Redis commands per hit ${fmt(perSmallHit, 3)} (the ` +
      `service's background included); errors ${smallRounds.reduce((n, r) => n + r.redis.errors + r.redis.non2xx, 0)}`,
    );

    // 5. Many job streams open on a quiet running job (burn reports nothing): Redis at idle.
    const STREAMS = Number(process.env.BENCH_JOB_STREAMS ?? 5000);
    const quiet = await post(`${a.url}/api/specimens/burn/start`, { params: { seconds: 120, seed: 2 }, room_id: 'streams-quiet' });
    const streams: StreamReader[] = [];
    for (let i = 0; i < STREAMS; i += 100) {
      streams.push(...(await Promise.all(Array.from({ length: Math.min(100, STREAMS - i) }, () => openStream(`${b.url}/api/jobs/${quiet.job_id}/events`)))));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const idleBefore = await commandsProcessed(admin);
    const idleStart = performance.now();
    await new Promise((r) => setTimeout(r, 10_000));
    const idleRate = ((await commandsProcessed(admin)) - idleBefore - 1) / ((performance.now() - idleStart) / 1000);
    for (const stream of streams) stream.close();
    await fetch(`${a.url}/api/jobs/${quiet.job_id}`, { method: 'DELETE' });
    lines.push(
      `${STREAMS} job streams open on one quiet running job (on host B, the job on the worker), 10 s: Redis commands ${fmt(idleRate, 1)}/s, the whole ` +
      `service's background included (target < 50)`,
    );
  } finally {
    for (const host of hosts) await host.stop('SIGTERM');
    worker.kill('SIGTERM');
    admin.disconnect();
    await redis.stop();
  }
  return { name: 'scale', lines };
}
