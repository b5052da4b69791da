/**
 * @module blobs.bench
 * `npm run bench blobs`: result bytes through an HTTP cache and in an object store, in one
 * run, on Debian's nginx (docs/nginx.conf) in front of a host with `--accel-redirect`, and on
 * Swift's S3 API. Counts are scaled to what a shared 2-core machine holds; each line says
 * what was scaled and measures the physical bound beside a target out of reach.
 *
 * 1. Hits: a ~46 KB blob through nginx's cache against the same bytes as a static file of the
 *    same nginx (autocannon, same connections and duration, alternated); origin fetches from
 *    nginx's `$upstream_cache_status` log.
 * 2. A cold join: N clients ask one room's 16 MiB volume at once through nginx: computations,
 *    origin fetches, hits, p99 time to last byte.
 * 3. Bytes out of Redis: rooms × results on the S3 store, Redis `used_memory` after; a cold
 *    blob read against the SDK's own GetObject of the same object, and its hash.
 * 4. Recompute while ranged reads run through nginx: reads whose bytes mix two results.
 * 5. The Godot client behind nginx: the same bytes and Content-Length on every /data.
 */
import autocannon from 'autocannon';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { computeResultId } from '../../core/results/result-id.ts';
import { S3BlobStore } from '../../core/scale/s3-blob-store.ts';
import { createS3Client } from '../../core/scale/s3-location.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startNginx, stopAllNginx } from '../helpers/nginx-server.ts';
import { startRedis, stopAllRedis } from '../helpers/redis-server.ts';
import { killAllHosts, spawnHost } from '../helpers/spawn-host.ts';
import { createBucket, startSwift, stopAllSwift } from '../helpers/swift-server.ts';
import { fmt, percentile } from './host-helpers.ts';

const MiB = 1024 * 1024;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: keep ? Buffer.concat(chunks) : Buffer.alloc(length), ms: performance.now() - started }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function rate(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: 4, pipelining: 1, headers: { 'accept-encoding': 'identity' } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

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
  const lines: string[] = [];
  const plugins = await fixturePluginsDir();
  const specimens = await specimensDir();
  const staticDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-static-'));
  try {
    const host = await spawnHost(['--port', '0', '--no-viewer', '--plugins', plugins, '--specimens', specimens, '--accel-redirect', '/_blobs/', '--log-level', 'warn', '--cache-ttl', '3600']);
    const nginx = await startNginx([host.port], `location /static/ { root ${staticDir}; }`);

    // 1. Hits: ramp n=23 is a 47.5 KB envelope (48,668 bytes of float32 and its preamble).
    const hit = await get(`${nginx.url}/api/specimens/ramp/data${q({ n: 23 }, 'hits')}`);
    const blobId = hit.headers['x-blob-id'] as string;
    // nginx's workers (an unprivileged user when started as root) must read it.
    await chmod(staticDir, 0o755);
    await mkdir(join(staticDir, 'static'), { recursive: true, mode: 0o755 });
    await writeFile(join(staticDir, 'static', 'blob.bin'), hit.body);
    const blobUrl = `${nginx.url}/api/blobs/${blobId}`;
    const staticUrl = `${nginx.url}/static/blob.bin`;
    const rates = { blob: [] as number[], file: [] as number[] };
    for (let i = 0; i < 2; i++) {
      rates.blob.push(await rate(blobUrl));
      rates.file.push(await rate(staticUrl));
    }
    const blobRate = Math.max(...rates.blob);
    const fileRate = Math.max(...rates.file);
    // The one fill came through /data's redirect; every later read, /data or blob URL, is a hit.
    const fills = (await nginx.accessLog()).filter((l) => (l.request.includes(blobId) || l.request.includes('room_id=hits')) && l.cache === 'MISS').length;
    lines.push(`hits, ${hit.body.byteLength} B blob via nginx cache: ${fmt(blobRate, 0)} req/s; same bytes as a static file: ${fmt(fileRate, 0)} req/s; ratio ${fmt(blobRate / fileRate)} (target >= 0.9); requests reaching vitrine for the blob: ${fills}`);

    // 2. A cold join: every client at once on one room's 16 MiB volume.
    const clients = 200;
    const coldUrl = `${nginx.url}/api/specimens/big/data${q({ megabytes: 16, seed: 1 }, 'cold-join')}`;
    const answers = await Promise.all(Array.from({ length: clients }, () => get(coldUrl, {}, false)));
    const log = (await nginx.accessLog()).filter((l) => l.request.includes('cold-join'));
    const complete = answers.filter((a) => a.status === 200 && a.body.byteLength === Number(a.headers['content-length'])).length;
    const times = answers.map((a) => a.ms);
    // The bound of this machine: the same clients on the same bytes as a static file of the same nginx.
    await writeFile(join(staticDir, 'static', 'cold.bin'), Buffer.alloc(16 * MiB + 80, 7));
    const bound = (await Promise.all(Array.from({ length: clients }, () => get(`${nginx.url}/static/cold.bin`, {}, false)))).map((a) => a.ms);
    lines.push(
      `cold join, ${clients} clients on one 16 MiB volume: ${complete} complete 200s; origin fetches (MISS) ${log.filter((l) => l.cache === 'MISS').length}, ` +
        `hits ${log.filter((l) => l.cache === 'HIT').length}, other ${log.filter((l) => l.cache !== 'MISS' && l.cache !== 'HIT').length}; time to last byte p50 ${fmt(percentile(times, 50), 0)} ms, p99 ${fmt(percentile(times, 99), 0)} ms ` +
        `(the same clients on a 16 MiB static file of the same nginx: p50 ${fmt(percentile(bound, 50), 0)} ms, p99 ${fmt(percentile(bound, 99), 0)} ms)`,
    );

    // 4. Recompute while ranged reads run: each answer must be a slice of the blob it names.
    const recomputes = 20;
    const reads = 200;
    const room = 'recompute';
    const wholes = new Map<string, Buffer>();
    let mixed = 0;
    let checked = 0;
    const reader = async (): Promise<void> => {
      for (let i = 0; i < reads / 10; i++) {
        const start = Math.floor(Math.random() * (2 * MiB - 4096));
        const part = await get(`${nginx.url}/api/specimens/big/data${q({ megabytes: 2, seed: 0 }, room).replace('"seed":0', `"seed":${i % 3}`)}`, { range: `bytes=${start}-${start + 4095}` });
        const id = part.headers['x-blob-id'] as string;
        if (!wholes.has(id)) wholes.set(id, (await get(`${host.url}/api/blobs/${id}`)).body);
        checked++;
        if (part.status !== 206 || !part.body.equals(wholes.get(id)!.subarray(start, start + 4096))) mixed++;
      }
    };
    const writer = async (): Promise<void> => {
      for (let i = 0; i < recomputes; i++) await get(`${host.url}/api/specimens/big/data${q({ megabytes: 2, seed: 100 + i }, room)}`, {}, false);
    };
    await Promise.all([writer(), ...Array.from({ length: 10 }, reader)]);
    lines.push(`recompute ${recomputes} times while ${checked} ranged reads run through nginx: ${mixed} reads mix bytes (or miss their blob); scaled from 100 × 1,000`);

    // 5. The Godot client behind nginx.
    const godot = { 'user-agent': 'GodotEngine/4.3.stable (Linux)' };
    const godotAnswers: Got[] = [];
    for (let i = 0; i < 20; i++) godotAnswers.push(await get(`${nginx.url}/api/specimens/big/data${q({ megabytes: 4, seed: 5 }, 'godot')}`, godot));
    const same = godotAnswers.every((a) => a.status === 200 && a.body.equals(godotAnswers[0]!.body) && Number(a.headers['content-length']) === a.body.byteLength);
    lines.push(`Godot client behind nginx, 20 /data: ${same ? 'the same bytes and Content-Length on every one' : 'DIFFERENT answers'}`);
    await nginx.stop();
    await host.stop();

    // 3. Bytes out of Redis, on Swift's S3 API.
    const [swift, redis] = await Promise.all([startSwift(), startRedis()]);
    process.env.AWS_ACCESS_KEY_ID = swift.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = swift.secretAccessKey;
    const s3 = createS3Client(swift.endpoint);
    await createBucket(s3, 'vitrine-bench');
    const env = { ...process.env, ...swift.env };
    const s3Host = await spawnHost(['--port', '0', '--no-viewer', '--plugins', plugins, '--specimens', specimens, '--redis', redis.url, '--blob-store', 's3://vitrine-bench/r', '--compute', '2', '--log-level', 'warn'], { env });
    const rooms = 20;
    const perRoom = 8;
    for (let i = 0; i < rooms; i++) await get(`${s3Host.url}/api/specimens/big/data${q({ megabytes: perRoom, seed: i }, `room-${i}`)}`, {}, false);
    const client = new Redis(redis.url);
    const used = Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    client.disconnect();
    lines.push(`bytes out of Redis: ${rooms} rooms × ${perRoom} MiB results on the S3 store leave Redis used_memory at ${fmt(used / MiB, 1)} MiB (target <= 64 MB at 1,000 × 64 MiB; scaled: Swift on this disk holds ${rooms * perRoom} MiB in reasonable time)`);
    await s3Host.stop();

    const coldMiB = 64;
    const store = new S3BlobStore(s3, { bucket: 'vitrine-bench', prefix: 'cold/' }, null);
    const data = new Uint16Array((coldMiB * MiB) / 2).map((_, i) => (i * 7) % 65521);
    const ref = await store.put({ type: 'volume', shape: [data.length], dtype: 'uint16', data }, 60_000);
    const sdk: number[] = [];
    const ours: number[] = [];
    let hashes = true;
    for (let i = 0; i < 2; i++) {
      let t = performance.now();
      const answer = await s3.send(new GetObjectCommand({ Bucket: 'vitrine-bench', Key: `cold/${ref.hash}` }));
      const sha = createHash('sha256');
      for await (const chunk of answer.Body as AsyncIterable<Uint8Array>) sha.update(chunk);
      sha.digest();
      sdk.push(performance.now() - t);
      t = performance.now();
      const fresh = new S3BlobStore(s3, { bucket: 'vitrine-bench', prefix: 'cold/' }, null);
      const result = await fresh.find(ref.hash);
      ours.push(performance.now() - t);
      hashes &&= result !== null && computeResultId(result) === ref.hash;
    }
    const best = (v: number[]) => Math.min(...v);
    lines.push(
      `cold ${coldMiB} MiB blob read: the store ${fmt(best(ours), 0)} ms (${fmt((coldMiB * 1000) / best(ours), 0)} MiB/s), the SDK's own GetObject ${fmt(best(sdk), 0)} ms; ` +
        `ratio ${fmt(best(sdk) / best(ours))} (target >= 0.8); hashes to its id: ${hashes}; scaled from 256 MiB`,
    );
    s3.destroy();
    await swift.stop();
  } finally {
    await Promise.all([killAllHosts(), stopAllNginx(), stopAllSwift(), stopAllRedis()]);
    agent.destroy();
  }
  return { name: 'blobs: object store and HTTP caches', lines };
}
