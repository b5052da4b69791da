/**
 * @module blob-store.test
 * The BlobStore contract, written once and run against both implementations: MemoryBlobStore
 * and RedisBlobStore on a real redis-server (small chunks forced through by a result larger
 * than one 4 MiB chunk), and S3BlobStore on a real S3 server (Swift with s3api), which must
 * also turn a transfer broken off midway or a store gone into the 503, never a short result. Every result type survives a round trip with its arrays' types and
 * values; equal results share one content hash; expiry and touch behave alike.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../core/scale/blob-store.ts';
import { MemoryBlobStore } from './memory-blob-store.ts';
import { CHUNK_BYTES, RedisBlobStore } from '../../core/scale/redis-blob-store.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { computeResultId, knownResultId } from '../../core/results/result-id.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { expectSameResult } from './same-result.ts';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../core/scale/s3-blob-store.ts';
import { createS3Client } from '../../core/scale/s3-location.ts';
import { createBucket, startSwift, type SwiftServer } from '../helpers/swift-server.ts';
import { startCuttingProxy, type CuttingProxy } from '../helpers/cutting-proxy.ts';

function shared<T extends Float32Array | Uint32Array | Uint8Array | Uint16Array>(make: (buffer: SharedArrayBuffer) => T): T {
  return make(new SharedArrayBuffer(1024 * 1024));
}

const RESULTS: Record<string, () => StoredResult> = {
  mesh: () => ({ type: 'mesh', vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]), normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]) }),
  volume: () => ({ type: 'volume', shape: [2, 2, 3], dtype: 'uint16', data: new Uint16Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 65535]), spacing: [1, 1, 0.5], valueRange: [1, 65535] }),
  point_cloud: () => ({ type: 'point_cloud', points: new Float32Array([1.5, 2.5, 3.5]), colors: new Uint8Array([255, 0, 7]) }),
  image: () => ({ type: 'image', width: 2, height: 1, channels: 3, dtype: 'uint8', data: shared((b) => new Uint8Array(b, 0, 6)).fill(9) }),
  // Larger than one chunk, its arrays not multiples of the chunk size: chunks cross array edges.
  large: () => {
    const vertices = new Float32Array((CHUNK_BYTES * 1.5) / 4 + 3).map((_, i) => i * 0.5);
    return { type: 'mesh', vertices, indices: new Uint32Array(7).map((_, i) => i) };
  },
};

function blobStoreCases(label: string, make: () => { store: BlobStore; expire(hash: string): Promise<void> }): void {
  describe(`${label} blob store`, () => {
    for (const [name, build] of Object.entries(RESULTS)) {
      it(`round-trips a ${name} result: fields, array types and values`, async () => {
        const { store } = make();
        const result = build();
        const ref = await store.put(result, 60_000);
        expectSameResult(await store.get(ref), result);
      });
    }

    it('gives equal results one content hash and different ones another', async () => {
      const { store } = make();
      const a = await store.put(RESULTS.mesh!(), 60_000);
      const b = await store.put(RESULTS.mesh!(), 60_000);
      const other = RESULTS.mesh!();
      (other as { vertices: Float32Array }).vertices[0] = 42;
      const c = await store.put(other, 60_000);
      expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(b.hash).toBe(a.hash);
      expect(c.hash).not.toBe(a.hash);
    });

    it('answers null once a blob has expired', async () => {
      const { store, expire } = make();
      const ref = await store.put(RESULTS.point_cloud!(), 60_000);
      await expire(ref.hash);
      expect(await store.get(ref)).toBeNull();
      expect(await store.find(ref.hash)).toBeNull();
    });

    it('finds a result by its id alone: the content hash, which is the result id', async () => {
      const { store } = make();
      const result = RESULTS.volume!();
      const ref = await store.put(result, 60_000);
      expect(ref.hash).toBe(computeResultId(RESULTS.volume!()));
      const found = await store.find(ref.hash);
      expect(Array.from((found as { data: Uint16Array }).data)).toEqual(Array.from((result as { data: Uint16Array }).data));
      expect(knownResultId(found!)).toBe(ref.hash);
      expect(await store.find('0'.repeat(64))).toBeNull();
    });
  });
}

// The memory store on a clock the test moves.
let now = 1_000_000;
blobStoreCases('memory', () => {
  const store = new MemoryBlobStore(() => now);
  return { store, expire: async () => void (now += 120_000) };
});

let redis: RedisServer;
let client: Redis;
beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
});
afterAll(() => client?.disconnect());
// No byte budget: every get reads Redis, never a memory copy.
blobStoreCases('redis', () => ({
  store: new RedisBlobStore(client, null),
  expire: async (hash) => {
    const keys = await client.keys(`vitrine:blob:${hash}*`);
    if (keys.length > 0) await client.del(...keys);
  },
}));

describe('redis blob store, a blob of several chunks', () => {
  it('reads as a miss, not an error, when one of its chunks is gone (read whole on a connection of its own)', async () => {
    const store = new RedisBlobStore(client, null);
    const ref = await store.put(RESULTS.large!(), 60_000);
    await client.del(KEYS.blobChunk(ref.hash, 1));
    expect(await store.get(ref)).toBeNull();
  });
});

let swift: SwiftServer;
let s3: ReturnType<typeof createS3Client>;
const BUCKET = 'vitrine-blobs';
beforeAll(async () => {
  swift = await startSwift();
  process.env.AWS_ACCESS_KEY_ID = swift.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = swift.secretAccessKey;
  s3 = createS3Client(swift.endpoint);
  await createBucket(s3, BUCKET);
}, 120_000);
afterAll(() => s3?.destroy());
blobStoreCases('s3', () => ({
  store: new S3BlobStore(s3, { bucket: BUCKET, prefix: 'results/' }, null),
  expire: async (hash) => void (await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `results/${hash}` }))),
}));

describe('s3 blob store faults', () => {
  let proxy: CuttingProxy;
  beforeAll(async () => {
    proxy = await startCuttingProxy(new URL(swift.endpoint).port);
  });
  afterAll(() => proxy?.close());

  it('goes up in parts and comes back whole when larger than one part', async () => {
    const store = new S3BlobStore(s3, { bucket: BUCKET, prefix: 'multipart/' }, null);
    const vertices = new Float32Array((9 * 1024 * 1024) / 4 + 5).map((_, i) => i);
    const ref = await store.put({ type: 'mesh', vertices, indices: new Uint32Array([0, 1, 2]) }, 60_000);
    const back = (await store.find(ref.hash)) as { vertices: Float32Array } | null;
    expect(back?.vertices.length).toBe(vertices.length);
    expect(back!.vertices[vertices.length - 1]).toBe(vertices.length - 1);
    expect(computeResultId(back as StoredResult)).toBe(ref.hash);
  });

  it('answers the 503 when a read is broken off midway, never a short result', async () => {
    const client = createS3Client(proxy.url);
    const store = new S3BlobStore(client, { bucket: BUCKET, prefix: 'cut/' }, null);
    const ref = await store.put(RESULTS.large!(), 60_000);
    proxy.cutAfter(1024 * 1024);
    await expect(store.get(ref)).rejects.toMatchObject({ code: 'SPC_ERR_BLOB_STORE_UNAVAILABLE', statusCode: 503 });
    proxy.cutAfter(null);
    expect(await store.get(ref)).not.toBeNull();
    client.destroy();
  });

  it('answers the 503 while the store cannot be reached, and a missing object as a miss', async () => {
    const client = createS3Client(`http://127.0.0.1:${await proxy.deadPort()}`);
    const store = new S3BlobStore(client, { bucket: BUCKET, prefix: 'gone/' }, null);
    await expect(store.find('a'.repeat(64))).rejects.toMatchObject({ code: 'SPC_ERR_BLOB_STORE_UNAVAILABLE' });
    await expect(store.put(RESULTS.mesh!(), 60_000)).rejects.toMatchObject({ code: 'SPC_ERR_BLOB_STORE_UNAVAILABLE' });
    const reachable = new S3BlobStore(s3, { bucket: BUCKET, prefix: 'gone/' }, null);
    expect(await reachable.find('a'.repeat(64))).toBeNull();
    client.destroy();
  });
});

describe('the Swift of these tests', () => {
  it('refuses a bucket name S3 does not allow at once, and takes a bucket made a second time', async () => {
    // 'x' is too short for a bucket name: S3 refuses it, and waiting would not change that.
    await expect(createBucket(s3, 'x')).rejects.toMatchObject({ name: 'InvalidBucketName' });
    await createBucket(s3, BUCKET);
  }, 30_000);
});
