/**
 * @module blob-store.test
 * The BlobStore cases (blob-store-cases.ts) run against every implementation: MemoryBlobStore
 * and DiskBlobStore (a lone host's data folder) on clocks the test moves, RedisBlobStore on a real redis-server (a result larger than one
 * 4 MiB chunk forces several through) and S3BlobStore on a real S3 server (Swift with s3api).
 * Then what is each store's own: a Redis blob missing one chunk is a miss, and an S3 transfer
 * broken off midway or a store gone is the 503, never a short result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../core/blobs/disk-blob-store.ts';
import { MemoryBlobStore } from '../../core/blobs/memory-blob-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { openTempDataStore } from '../helpers/temp-data-store.ts';
import { RedisBlobStore } from '../../core/blobs/redis-blob-store.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { computeResultId } from '../../core/results/result-id.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { BLOB_RESULTS, blobStoreConformance } from './blob-store-cases.ts';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../core/blobs/s3-blob-store.ts';
import { createS3Client } from '../../core/blobs/s3-location.ts';
import { fileS3 } from '../helpers/file-s3.ts';
import { createBucket } from '../helpers/swift-server.ts';
import { startCuttingProxy, type CuttingProxy } from '../helpers/cutting-proxy.ts';

// The memory store on a clock the test moves.
let now = 1_000_000;
blobStoreConformance('memory', () => {
  const store = new MemoryBlobStore(() => now);
  return { store, expire: async () => void (now += 120_000) };
});

// The data folder's store, on a clock of its own.
let disk: DataStore;
let diskNow = 1_000_000;
beforeAll(async () => {
  disk = await openTempDataStore();
});
blobStoreConformance('disk', () => ({ store: new DiskBlobStore(disk, () => diskNow), expire: async () => void (diskNow += 120_000) }));

const redis = fileRedis();
// No byte budget: every get reads Redis, never a memory copy.
blobStoreConformance('redis', () => ({
  store: new RedisBlobStore(redis.client, null),
  expire: async (hash) => {
    const keys = await redis.client.keys(`vitrine:blob:${hash}*`);
    if (keys.length > 0) await redis.client.del(...keys);
  },
}));

describe('redis blob store, a blob of several chunks', () => {
  it('reads as a miss, not an error, when one of its chunks is gone (read whole on a connection of its own)', async () => {
    const store = new RedisBlobStore(redis.client, null);
    const ref = await store.put(BLOB_RESULTS.large!(), 60_000);
    await redis.client.del(KEYS.blobChunk(ref.hash, 1));
    expect(await store.get(ref)).toBeNull();
  });
});

const BUCKET = 'vitrine-blobs';
const objects = fileS3(BUCKET);
blobStoreConformance('s3', () => ({
  store: new S3BlobStore(objects.s3, { bucket: BUCKET, prefix: 'results/' }, null),
  expire: async (hash) => void (await objects.s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `results/${hash}` }))),
}));

describe('s3 blob store faults', () => {
  let proxy: CuttingProxy;
  beforeAll(async () => {
    proxy = await startCuttingProxy(new URL(objects.swift.endpoint).port);
  });
  afterAll(() => proxy?.close());

  it('goes up in parts and comes back whole when larger than one part', async () => {
    const store = new S3BlobStore(objects.s3, { bucket: BUCKET, prefix: 'multipart/' }, null);
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
    const ref = await store.put(BLOB_RESULTS.large!(), 60_000);
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
    await expect(store.put(BLOB_RESULTS.mesh!(), 60_000)).rejects.toMatchObject({ code: 'SPC_ERR_BLOB_STORE_UNAVAILABLE' });
    const reachable = new S3BlobStore(objects.s3, { bucket: BUCKET, prefix: 'gone/' }, null);
    expect(await reachable.find('a'.repeat(64))).toBeNull();
    client.destroy();
  });
});

describe('the Swift of these tests', () => {
  it('refuses a bucket name S3 does not allow at once, and takes a bucket made a second time', async () => {
    // 'x' is too short for a bucket name: S3 refuses it, and waiting would not change that.
    await expect(createBucket(objects.s3, 'x')).rejects.toMatchObject({ name: 'InvalidBucketName' });
    await createBucket(objects.s3, BUCKET);
  }, 30_000);
});
