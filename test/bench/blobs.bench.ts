/**
 * @module blobs.bench
 * `npm run bench blobs`: result bytes through an HTTP cache and in an object store, in one
 * run, on Debian's nginx (docs/nginx.conf) in front of a host with `--accel-redirect`, and on
 * Swift's S3 API. The counts are the full ones by default where this machine holds them, and
 * each can be set (`BLOBS_*` below); `BLOBS_BENCH_QUICK=1` runs small counts for development.
 * Every line carries the load average, since the machine is shared.
 *
 * 1. Hits: a ~48 KB blob through nginx's cache against the same bytes as a static file of the
 *    same nginx (blobs-hits.ts: alternating rounds, min/median/max of the ratio, CPU per request
 *    of nginx and of the load generator); origin fetches from nginx's `$upstream_cache_status`.
 * 2. A cold join: N clients ask one room's 16 MiB volume at once through nginx: computations,
 *    origin fetches, hits, p99 time to last byte, beside the same clients on a static file.
 * 3. Recompute while ranged reads run through nginx: reads whose bytes mix two results.
 * 4. The Godot client behind nginx: the same bytes and Content-Length on every /data.
 * 5. Bytes out of Redis, on the S3 store: ROOMS rooms with a result each, then BIG_ROOMS rooms
 *    with 64 MiB results; Redis `used_memory` and its growth per result in both, so what Redis
 *    holds is seen to follow the number of results, not their size. The disk and Swift's write
 *    rate, measured in the same run, bound how many 64 MiB results one run can write.
 * 6. A cold 256 MiB blob read by the store against the SDK's own GetObject of the same object,
 *    and its hash.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, statfs, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { computeResultId } from '../../core/results/result-id.ts';
import { S3BlobStore } from '../../core/blobs/s3-blob-store.ts';
import { createS3Client } from '../../core/blobs/s3-location.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startNginx, stopAllNginx } from '../helpers/nginx-server.ts';
import { startRedis, stopAllRedis } from '../helpers/redis-server.ts';
import { killAllHosts, spawnHost } from '../helpers/spawn-host.ts';
import { createBucket, startSwift, stopAllSwift } from '../helpers/swift-server.ts';
import { compareHits, spread } from './blobs-hits.ts';
import { fmt, percentile } from './host-helpers.ts';
import { keyBytes, usedMemory } from './redis-memory.ts';

const MiB = 1024 * 1024;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** The counts of one run: full ones by default, small ones with BLOBS_BENCH_QUICK=1, each settable. */
function scale() {
  const quick = process.env.BLOBS_BENCH_QUICK === '1';
  const count = (name: string, full: number, small: number): number => {
    const text = process.env[`BLOBS_${name}`];
    const value = text === undefined ? (quick ? small : full) : Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`BLOBS_${name} must be a positive number, not '${text}'`);
    return value;
  };
  const whole = (name: string, value: number): number => {
    // The fixture's volumes are sized in whole MiB.
    if (!Number.isInteger(value)) throw new Error(`BLOBS_${name} must be a whole number of MiB, not ${value}`);
    return value;
  };
  return {
    quick,
    hitRounds: count('HIT_ROUNDS', 7, 2),
    hitSeconds: count('HIT_SECONDS', 3, 2),
    hitConnections: count('HIT_CONNECTIONS', 16, 16),
    coldClients: count('COLD_CLIENTS', 200, 20),
    rooms: count('ROOMS', 1000, 20),
    roomMiB: whole('ROOM_MIB', count('ROOM_MIB', 1, 1)),
    bigRooms: count('BIG_ROOMS', 10, 1),
    bigMiB: whole('BIG_MIB', count('BIG_MIB', 64, 16)),
    coldReadMiB: count('COLD_READ_MIB', 256, 16),
    recomputes: count('RECOMPUTES', 100, 10),
    rangedReads: count('RANGED_READS', 1000, 100),
  };
}

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

function get(url: string, headers: Record<string, string> = {}, keep = true): Promise<Got> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        let length = 0;
        res.on('data', (c: Buffer) => (keep ? chunks.push(c) : (length += c.byteLength)));
        res.on('end', () => {
          const body = keep ? Buffer.concat(chunks) : Buffer.alloc(length);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** A /data answer that must be a complete 200; its bytes are counted, not kept. */
async function compute(url: string): Promise<void> {
  const answer = await get(url, {}, false);
  if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
}

/** Runs `task(0..count-1)` with at most `width` at once. */
async function pool(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

/** Room cache lookups the host counted as misses so far: the computations it started. */
async function computations(hostUrl: string): Promise<number> {
  const text = (await get(`${hostUrl}/metrics`)).body.toString();
  const match = /^vitrine_cache_lookups\{outcome="miss"\} (\d+)/m.exec(text);
  if (!match) throw new Error(`${hostUrl}/metrics has no vitrine_cache_lookups{outcome="miss"}`);
  return Number(match[1]);
}

const load = () => `load ${loadavg().map((n) => fmt(n, 1)).join(' ')}`;
const n0 = (n: number) => Math.round(n).toLocaleString('en-US');

async function specimensDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-bench-blobs-'));
  for (const [id, fn, type] of [['ramp', 'ramp', 'volume'], ['big', 'big_volume', 'volume']] as const) {
    await mkdir(join(dir, id));
    await writeFile(join(dir, id, 'specimen.json'), JSON.stringify({ display_name: id, type, function_name: fn }));
  }
  return dir;
}

const q = (params: object, room: string, extra = '') => `?params=${encodeURIComponent(JSON.stringify(params))}&room_id=${room}${extra}`;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const counts = scale();
  const lines: string[] = [
    `${counts.quick ? 'quick counts (BLOBS_BENCH_QUICK=1)' : 'full counts'}; ${availableParallelism()} cores, shared; at start ${load()}`,
  ];
  const plugins = await fixturePluginsDir();
  const specimens = await specimensDir();
  const staticDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-static-'));
  // The flags both hosts of this run start with.
  const hostFlags = ['--port', '0', '--no-viewer', '--plugins', plugins, '--specimens', specimens];
  try {
    const host = await spawnHost([...hostFlags, '--accel-redirect', '/_blobs/', '--log-level', 'warn', '--cache-ttl', '3600']);
    const nginx = await startNginx([host.port], `location /static/ { root ${staticDir}; }`);

    // 1. Hits: ramp n=23 is a 47.6 KB envelope (48,668 bytes of float32 and its preamble).
    const hit = await get(`${nginx.url}/api/specimens/ramp/data${q({ n: 23 }, 'hits')}`);
    const blobId = hit.headers['x-blob-id'] as string;
    // nginx's workers (an unprivileged user when started as root) must read it.
    await chmod(staticDir, 0o755);
    await mkdir(join(staticDir, 'static'), { recursive: true, mode: 0o755 });
    await writeFile(join(staticDir, 'static', 'blob.bin'), hit.body);
    const hits = await compareHits(`${nginx.url}/api/blobs/${blobId}`, `${nginx.url}/static/blob.bin`, nginx.pid, {
      rounds: counts.hitRounds,
      seconds: counts.hitSeconds,
      connections: counts.hitConnections,
    });
    // The one fill came through /data's redirect; every later read, /data or blob URL, is a hit.
    const fills = (await nginx.accessLog()).filter((l) => (l.request.includes(blobId) || l.request.includes('room_id=hits')) && l.cache === 'MISS').length;
    const ratio = spread(hits.ratios);
    const med = (v: number[]) => spread(v).median;
    lines.push(
      `hits, ${hit.body.byteLength} B blob via nginx's cache against the same bytes as a static file of the same nginx ` +
        `(${counts.hitRounds} alternating rounds of ${counts.hitSeconds} s each, ${counts.hitConnections} connections): ` +
        `ratio min ${fmt(ratio.min)}, median ${fmt(ratio.median)}, max ${fmt(ratio.max)} (target >= 0.9); ` +
        `median ${n0(med(hits.blob.rates))} against ${n0(med(hits.file.rates))} req/s; ` +
        `nginx CPU per request ${fmt(med(hits.blob.nginxUs), 1)} µs against ${fmt(med(hits.file.nginxUs), 1)} µs, ` +
        `the load generator's ${fmt(med(hits.blob.generatorUs), 1)} µs against ${fmt(med(hits.file.generatorUs), 1)} µs; ` +
        `requests reaching vitrine for the blob: ${fills}; ${load()}`,
    );

    // 2. A cold join: every client at once on one room's 16 MiB volume.
    const clients = counts.coldClients;
    const coldUrl = `${nginx.url}/api/specimens/big/data${q({ megabytes: 16, seed: 1 }, 'cold-join')}`;
    const computedBefore = await computations(host.url);
    const answers = await Promise.all(Array.from({ length: clients }, () => get(coldUrl, {}, false)));
    const computed = (await computations(host.url)) - computedBefore;
    const log = (await nginx.accessLog()).filter((l) => l.request.includes('cold-join'));
    const complete = answers.filter((a) => a.status === 200 && a.body.byteLength === Number(a.headers['content-length'])).length;
    const times = answers.map((a) => a.ms);
    // The bound of this machine: the same clients on the same bytes as a static file of the same nginx.
    await writeFile(join(staticDir, 'static', 'cold.bin'), Buffer.alloc(16 * MiB + 80, 7));
    const bound = (await Promise.all(Array.from({ length: clients }, () => get(`${nginx.url}/static/cold.bin`, {}, false)))).map((a) => a.ms);
    lines.push(
      `cold join, ${clients} clients on one 16 MiB volume: ${complete} complete 200s; computations ${computed}; ` +
        `origin fetches (MISS) ${log.filter((l) => l.cache === 'MISS').length}, hits ${log.filter((l) => l.cache === 'HIT').length}, ` +
        `other ${log.filter((l) => l.cache !== 'MISS' && l.cache !== 'HIT').length}; ` +
        `time to last byte p50 ${fmt(percentile(times, 50), 0)} ms, p99 ${fmt(percentile(times, 99), 0)} ms ` +
        `(the same clients on a 16 MiB static file of the same nginx: ` +
        `p50 ${fmt(percentile(bound, 50), 0)} ms, p99 ${fmt(percentile(bound, 99), 0)} ms); ${load()}`,
    );

    // 3. Recompute while ranged reads run: each answer must be a slice of the blob it names.
    // The readers go on until the recomputes are done and at least RANGED_READS reads are in.
    // Results are content-addressed, so the bytes of each parameter set the readers ask for
    // are known beforehand, from a room of their own: every 206 must be a slice of the one its
    // X-Blob-Id names. (Read afterwards from the host, a blob could be gone already: a room's
    // result is let go once the room has moved on.)
    const room = 'recompute';
    const seeds = 3;
    const wholes = new Map<string, Buffer>();
    for (let seed = 0; seed < seeds; seed++) {
      const named = await get(`${host.url}/api/specimens/big/data${q({ megabytes: 2, seed }, 'recompute-reference')}`, {}, false);
      const id = named.headers['x-blob-id'] as string;
      const whole = await get(`${host.url}/api/blobs/${id}`);
      if (whole.status !== 200) throw new Error(`blob ${id} of seed ${seed}: ${whole.status}`);
      wholes.set(id, whole.body);
    }
    const faults = { mixed: 0, status: new Map<number, number>(), unknown: 0 };
    let checked = 0;
    let recomputed = 0;
    let writing = true;
    const reader = async (): Promise<void> => {
      for (let i = 0; writing || checked < counts.rangedReads; i++) {
        const start = Math.floor(Math.random() * (2 * MiB - 4096));
        const part = await get(`${nginx.url}/api/specimens/big/data${q({ megabytes: 2, seed: i % seeds }, room)}`, { range: `bytes=${start}-${start + 4095}` });
        checked++;
        const whole = wholes.get(String(part.headers['x-blob-id']));
        if (part.status !== 206) faults.status.set(part.status, (faults.status.get(part.status) ?? 0) + 1);
        else if (!whole) faults.unknown++;
        else if (!part.body.equals(whole.subarray(start, start + 4096))) faults.mixed++;
      }
    };
    const writer = async (): Promise<void> => {
      try {
        for (let i = 0; i < counts.recomputes; i++, recomputed++)
          await compute(`${host.url}/api/specimens/big/data${q({ megabytes: 2, seed: 100 + i }, room)}`);
      } finally {
        writing = false;
      }
    };
    await Promise.all([writer(), ...Array.from({ length: 10 }, reader)]);
    const statuses = [...faults.status].map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
    lines.push(
      `recompute ${recomputed} times while ${n0(checked)} ranged reads (4 KiB of 2 MiB results, 10 readers) run through nginx: ` +
        `${faults.mixed} reads mix bytes (target 0 at 100 × 1,000); ` +
        `answers other than 206: ${statuses}; 206s naming no blob of the parameters asked: ${faults.unknown}; ${load()}`,
    );

    // 4. The Godot client behind nginx.
    const godot = { 'user-agent': 'GodotEngine/4.3.stable (Linux)' };
    const godotAnswers: Got[] = [];
    for (let i = 0; i < 20; i++) godotAnswers.push(await get(`${nginx.url}/api/specimens/big/data${q({ megabytes: 4, seed: 5 }, 'godot')}`, godot));
    const same = godotAnswers.every(
      (a) => a.status === 200 && a.body.equals(godotAnswers[0]!.body) && Number(a.headers['content-length']) === a.body.byteLength,
    );
    lines.push(`Godot client behind nginx, 20 /data: ${same ? 'the same bytes and Content-Length on every one' : 'DIFFERENT answers'}`);
    wholes.clear();
    await nginx.stop();
    await host.stop();

    // 5. Bytes out of Redis, on Swift's S3 API. The disk must hold what this run writes.
    const disk = await statfs(tmpdir());
    const free = disk.bavail * disk.bsize;
    const writes = (counts.rooms * counts.roomMiB + counts.bigRooms * counts.bigMiB + counts.coldReadMiB) * MiB;
    if (writes > 0.8 * free)
      throw new Error(
        `this run would write ${fmt(writes / 2 ** 30, 1)} GiB to Swift, more than 80% of the ${fmt(free / 2 ** 30, 1)} GiB free under ${tmpdir()}: ` +
          `lower BLOBS_ROOMS, BLOBS_ROOM_MIB or BLOBS_BIG_ROOMS`,
      );
    const [swift, redis] = await Promise.all([startSwift(), startRedis()]);
    process.env.AWS_ACCESS_KEY_ID = swift.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = swift.secretAccessKey;
    const s3 = createS3Client(swift.endpoint);
    await createBucket(s3, 'vitrine-bench');
    const env = { ...process.env, ...swift.env };
    const s3Host = await spawnHost(
      [...hostFlags, '--redis', redis.url, '--blob-store', 's3://vitrine-bench/r', '--compute', '2', '--log-level', 'warn'],
      { env },
    );
    const client = new Redis(redis.url);
    const roomUrl = (i: number, megabytes: number) => `${s3Host.url}/api/specimens/big/data${q({ megabytes, seed: i }, `room-${i}`)}`;
    const used0 = await usedMemory(client);
    const held0 = await keyBytes(client);
    let started = performance.now();
    await pool(counts.rooms, 8, (i) => compute(roomUrl(i, counts.roomMiB)));
    const roomsSeconds = (performance.now() - started) / 1000;
    const used1 = await usedMemory(client);
    const held1 = await keyBytes(client);
    started = performance.now();
    await pool(counts.bigRooms, 1, (i) => compute(roomUrl(counts.rooms + i, counts.bigMiB)));
    const bigSeconds = (performance.now() - started) / 1000;
    const used2 = await usedMemory(client);
    const held2 = await keyBytes(client);
    client.disconnect();
    await s3Host.stop();
    const perSmall = (held1.bytes - held0.bytes) / counts.rooms;
    const perBig = (held2.bytes - held1.bytes) / counts.bigRooms;
    const bigRate = (counts.bigRooms * counts.bigMiB) / bigSeconds;
    const target = { rooms: 1000, mib: 64 };
    const targetBytes = target.rooms * target.mib * MiB;
    // What Redis would hold at the target: where it started, and the larger growth per result
    // of the two sizes for every result.
    const projected = used0 + target.rooms * Math.max(perSmall, perBig);
    lines.push(
      `bytes out of Redis, S3 store on Swift: ${n0(counts.rooms)} rooms × ${counts.roomMiB} MiB results ` +
        `leave Redis used_memory at ${fmt(used1 / MiB, 1)} MiB ` +
        `(${n0(held1.keys)} keys; ${n0(perSmall)} B of keys per result; ${fmt(counts.rooms / roomsSeconds, 1)} results/s); ` +
        `then ${counts.bigRooms} rooms × ${counts.bigMiB} MiB: ${fmt(used2 / MiB, 1)} MiB (${n0(perBig)} B of keys per result); ` +
        `Redis started at ${fmt(used0 / MiB, 1)} MiB. Target: <= 64 MB at ${n0(target.rooms)} × ${target.mib} MiB; ` +
        `at the larger growth per result, ${n0(target.rooms)} results leave it at ${fmt(projected / 1e6, 1)} MB whatever their size. ` +
        `Those ${fmt(targetBytes / 2 ** 30, 1)} GiB on the store: this disk has ${fmt(free / 2 ** 30, 1)} GiB free ` +
        `and Swift took ${counts.bigMiB} MiB results at ${fmt(bigRate, 0)} MiB/s here, ` +
        `computing included (${fmt(targetBytes / MiB / bigRate / 60, 0)} min for all of them); ${load()}`,
    );

    // 6. A cold read of one large blob: the store against the SDK's own GetObject.
    const coldMiB = counts.coldReadMiB;
    const store = new S3BlobStore(s3, { bucket: 'vitrine-bench', prefix: 'cold/' }, null);
    const ref = await store.put(
      { type: 'volume', shape: [(coldMiB * MiB) / 2], dtype: 'uint16', data: new Uint16Array((coldMiB * MiB) / 2).map((_, i) => (i * 7) % 65521) },
      60_000,
    );
    const sdk: number[] = [];
    const ours: number[] = [];
    let hashes = true;
    for (let i = 0; i < 3; i++) {
      let t = performance.now();
      const answer = await s3.send(new GetObjectCommand({ Bucket: 'vitrine-bench', Key: `cold/${ref.hash}` }));
      const sha = createHash('sha256');
      for await (const chunk of answer.Body as AsyncIterable<Uint8Array>) sha.update(chunk);
      sha.digest();
      sdk.push(performance.now() - t);
      t = performance.now();
      // A store of its own each time: nothing of the blob is held in memory before the read.
      const fresh = new S3BlobStore(s3, { bucket: 'vitrine-bench', prefix: 'cold/' }, null);
      const result = await fresh.find(ref.hash);
      ours.push(performance.now() - t);
      hashes &&= result !== null && computeResultId(result) === ref.hash;
    }
    const best = (v: number[]) => Math.min(...v);
    lines.push(
      `cold ${coldMiB} MiB blob read, best of 3: the store ${fmt(best(ours), 0)} ms (${fmt((coldMiB * 1000) / best(ours), 0)} MiB/s), ` +
        `the SDK's own GetObject (read and hashed) ${fmt(best(sdk), 0)} ms; ` +
        `ratio ${fmt(best(sdk) / best(ours))} (target >= 0.8; each round: ${ours.map((t, i) => fmt(sdk[i]! / t)).join(', ')}); ` +
        `hashes to its id: ${hashes}; ${load()}`,
    );
    s3.destroy();
    await swift.stop();
  } finally {
    await Promise.all([killAllHosts(), stopAllNginx(), stopAllSwift(), stopAllRedis()]);
    agent.destroy();
  }
  return { name: 'blobs: object store and HTTP caches', lines };
}
