/**
 * A Redis service whose result bytes live in a real S3 server (Swift with s3api) through
 * `--blob-store s3://BUCKET/PREFIX`, across real processes: one object per result keyed by its
 * id, Redis holding pointers only, another host reading the same bytes (and serving them as a
 * blob URL) from the store, a `vitrine worker` writing them; the endpoint from
 * `--s3-endpoint` or `AWS_ENDPOINT_URL_S3`,
 * credentials from the standard AWS environment and never in the logs. A store that goes away
 * is a 503 with a readable detail, never a hang: one that stalls answers within its time limit
 * (`--s3-timeout`, set short on host b so that the wait costs the suite little), and
 * `/readyz` says the store does not answer while it lasts. A job whose result was computed
 * while the store was down is stored once it is back, not failed.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../../core/blobs/s3-location.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { spawnWorker, type RunningWorker } from '../helpers/spawn-worker.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { createBucket, startSwift, type SwiftServer } from '../helpers/swift-server.ts';

const BUCKET = 'vitrine-service';
/** Host b's `--s3-timeout`: short, yet long enough for a loaded Swift to answer a sound request. */
const B_TIMEOUT_S = 3;
let swift: SwiftServer;
let redis: RedisServer;
let a: RunningHost;
let b: RunningHost;
let worker: RunningWorker;
let rooms = 0;
const room = () => `s3-${process.pid}-${++rooms}`;

beforeAll(async () => {
  [swift, redis] = await Promise.all([startSwift(), startRedis()]);
  const s3 = createS3Client(swift.endpoint);
  process.env.AWS_ACCESS_KEY_ID = swift.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = swift.secretAccessKey;
  await createBucket(s3, BUCKET);
  s3.destroy();
  const specimens = await mkdtemp(join(tmpdir(), 'vitrine-s3-specimens-'));
  await mkdir(join(specimens, 'big'));
  await writeFile(join(specimens, 'big', 'specimen.json'), JSON.stringify({ display_name: 'big', type: 'volume', function_name: 'big_volume' }));
  const common = [
    '--port',
    '0',
    '--no-viewer',
    '--log-level',
    'info',
    '--redis',
    redis.url,
    '--blob-store',
    `s3://${BUCKET}/service`,
    '--plugins',
    await fixturePluginsDir(),
    '--specimens',
    specimens,
  ];
  const credentials = { AWS_ACCESS_KEY_ID: swift.accessKeyId, AWS_SECRET_ACCESS_KEY: swift.secretAccessKey, AWS_REGION: swift.region };
  [a, b] = await Promise.all([
    // Two front ends: host a finds its endpoint in the environment, host b is told it; a
    // `vitrine worker` computes and writes the objects.
    spawnHost([...common, '--compute', '0'], { env: { ...process.env, ...credentials, AWS_ENDPOINT_URL_S3: swift.endpoint } }),
    spawnHost([...common, '--compute', '0', '--s3-endpoint', swift.endpoint, '--s3-timeout', String(B_TIMEOUT_S)], {
      env: { ...process.env, ...credentials, AWS_ENDPOINT_URL_S3: '' },
    }),
  ]);
  // The worker inherits this process's environment, credentials included.
  worker = await spawnWorker([
    '--redis',
    redis.url,
    '--blob-store',
    `s3://${BUCKET}/service`,
    '--s3-endpoint',
    swift.endpoint,
    '--plugins',
    await fixturePluginsDir(),
    '--pool-size',
    '1',
    '--log-level',
    'warn',
  ]);
}, 150_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

async function data(host: RunningHost, params: object, roomId: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${host.url}/api/specimens/big/data?params=${encodeURIComponent(JSON.stringify(params))}&room_id=${roomId}`, {
    headers: { 'accept-encoding': 'identity' },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('result bytes in an S3 object store', () => {
  it('keeps one object per result, pointers only in Redis, and the same bytes on every host', async () => {
    const r = room();
    const first = await data(a, { megabytes: 3, seed: 7 }, r);
    expect(first.status).toBe(200);
    // The SDK's notice about its future Node versions is not the operator's concern.
    for (const host of [a, b]) expect(host.stderr()).not.toMatch(/NodeVersionSupportWarning/);
    const id = first.headers.get('x-result-id')!;
    const again = await data(b, { megabytes: 3, seed: 7 }, r);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-result-id')).toBe(id);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    const blob = await fetch(`${b.url}/api/blobs/${id}`);
    expect(Buffer.from(await blob.arrayBuffer()).equals(first.bytes)).toBe(true);

    const s3 = createS3Client(swift.endpoint);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'service/' }));
    s3.destroy();
    expect(listed.Contents?.map((o) => o.Key)).toContain(`service/${id}`);
    const client = new Redis(redis.url);
    const stored = await client.keys('vitrine:blob:*');
    const memory = Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    client.disconnect();
    expect(stored).toEqual([]);
    // 3 MiB of result bytes went to the object store, not here.
    expect(memory).toBeLessThan(3 * 1024 * 1024);
    expect(a.stderr() + b.stderr()).not.toContain(swift.secretAccessKey);
  });

  it('answers a read from a stalled store with 503 within its time limit, and is not ready until it answers again', async () => {
    swift.freeze();
    try {
      const unknown = await fetch(`${b.url}/api/blobs/${'e'.repeat(64)}`);
      expect(unknown.status).toBe(503);
      expect(((await unknown.json()) as { detail: string }).detail).toMatch(new RegExp(`object store .*did not answer within ${B_TIMEOUT_S} s`));
      const notReady = await waitFor(async () => {
        const answer = await fetch(`${b.url}/readyz`);
        return answer.status === 503 ? ((await answer.json()) as { detail: string }).detail : undefined;
      }, '/readyz to say the store does not answer');
      expect(notReady).toMatch(/the object store at bucket vitrine-service does not answer/);
    } finally {
      swift.thaw();
    }
    await waitFor(async () => ((await fetch(`${b.url}/readyz`)).status === 200 ? true : undefined), '/readyz to be ready again');
  });

  it('stores a job\'s result computed while the store is down once it is back: the job ends done', async () => {
    await swift.outage();
    let restored = false;
    try {
      const started = await fetch(`${a.url}/api/specimens/big/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { megabytes: 1, seed: 41 }, room_id: room() }),
      });
      const { job_id: jobId } = (await started.json()) as { job_id: string };
      await waitFor(
        () => (/the result of big_volume waits for the blob store/.test(worker.stderr()) ? true : undefined),
        'the worker to hold the result for the store',
      );
      // Meanwhile a computation no job waits for answers 503 at once, as before.
      expect((await data(a, { megabytes: 1, seed: 42 }, room())).status).toBe(503);
      await swift.restore();
      restored = true;
      const done = await waitFor(async () => {
        const progress = (await (await fetch(`${a.url}/api/jobs/${jobId}/progress`)).json()) as { status: string; error: string | null };
        return progress.status === 'running' ? undefined : progress;
      }, 'the job to end');
      expect(done).toMatchObject({ status: 'done', error: null });
      expect((await fetch(`${b.url}/api/jobs/${jobId}/result`)).status).toBe(200);
    } finally {
      if (!restored) await swift.restore();
    }
  });

  it('refuses to start a host whose bucket does not exist, naming the bucket and the store', async () => {
    const args = ['--port', '0', '--no-viewer', '--redis', redis.url, '--blob-store', 's3://no-such-bucket/x', '--s3-endpoint', swift.endpoint];
    const env = { ...process.env, AWS_ACCESS_KEY_ID: swift.accessKeyId, AWS_SECRET_ACCESS_KEY: swift.secretAccessKey, AWS_REGION: swift.region };
    const refused = await spawnHost(args, { env }).then(
      async (host) => {
        await host.stop();
        return 'it started';
      },
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/exited with 1 before listening/);
    expect(refused).toContain(`the bucket 'no-such-bucket' of --blob-store does not exist at ${swift.endpoint}`);
    expect(refused).not.toContain(swift.secretAccessKey);
  });

  it('answers 503 with a readable detail while the store is gone, never a hang', async () => {
    await swift.stop();
    const res = await data(a, { megabytes: 1, seed: 99 }, room());
    expect(res.status).toBe(503);
    expect(JSON.parse(res.bytes.toString()).detail).toMatch(/object store/);
  });
});
