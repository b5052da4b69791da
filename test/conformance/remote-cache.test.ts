/**
 * @module remote-cache.test
 * The RemoteCache contract, written once and run against every home of remote reads: one
 * process's memory, a lone host's data folder (read back after the store is closed and opened
 * again, as a restarted host does), a Redis service whose blob store is Redis or S3 (Swift with
 * s3api), each read back by a second home on a connection of its own (another host of the
 * service), and memory in front of the data folder. A read comes back byte for byte under its
 * key and under no other (another range, another version); a home that lost it reads as a miss.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../core/blobs/disk-blob-store.ts';
import { DiskKeptResults } from '../../core/blobs/disk-kept-results.ts';
import { RedisBlobStore } from '../../core/blobs/redis-blob-store.ts';
import { S3BlobStore } from '../../core/blobs/s3-blob-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { BlobRemoteCache } from '../../core/remote/blob-remote-cache.ts';
import { DiskRemoteCache } from '../../core/remote/disk-remote-cache.ts';
import { LayeredRemoteCache } from '../../core/remote/layered-remote-cache.ts';
import { MemoryRemoteCache } from '../../core/remote/memory-remote-cache.ts';
import type { RemoteBytes } from '../../core/remote/remote-bytes.ts';
import { keptRead, remoteCacheKey, type RemoteCache } from '../../core/remote/remote-cache.ts';
import { computeResultId } from '../../core/results/result-id.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { fileS3 } from '../helpers/file-s3.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';

/** A home of remote reads: a writer, a reader of the same home (another process or host), and how it loses a read. */
interface CacheHarness {
  writer: RemoteCache;
  reader(): Promise<RemoteCache>;
  lose(value: RemoteBytes): Promise<void>;
}

/** Bytes no other case keeps (so a home shared by the cases cannot answer one case with another's). */
function readOf(label: string, size: number): RemoteBytes {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + label.length * 7 + label.charCodeAt(0)) & 0xff;
  bytes.set(new TextEncoder().encode(label));
  return { bytes, etag: '"v1"', lastModified: null };
}

function remoteCacheCases(label: string, make: () => Promise<CacheHarness>): void {
  describe(`${label} remote cache`, () => {
    it('gives a read back byte for byte under its key, to another reader of the home, and nothing under another range or version', async () => {
      const home = await make();
      const url = `http://127.0.0.1:9/${label}/0/c/0/0/0`;
      const value = readOf(`${label}-kept`, 70_000);
      await home.writer.set(remoteCacheKey(url, '0+70000', '"v1"'), value);
      const reader = await home.reader();
      const back = await reader.get(remoteCacheKey(url, '0+70000', '"v1"'));
      expect(back).toBeDefined();
      expect(Buffer.from(back!.bytes).equals(Buffer.from(value.bytes))).toBe(true);
      expect(await reader.get(remoteCacheKey(url, '0+70000', '"v2"'))).toBeUndefined();
      expect(await reader.get(remoteCacheKey(url, '1+70000', '"v1"'))).toBeUndefined();
      expect(await reader.get(remoteCacheKey(`${url}x`, '0+70000', '"v1"'))).toBeUndefined();
    });

    it('keeps an empty read, and reads one its home lost as a miss', async () => {
      const home = await make();
      const lostKey = remoteCacheKey(`http://127.0.0.1:9/${label}/lost`, '', '"v1"');
      const value = readOf(`${label}-lost`, 5_000);
      await home.writer.set(lostKey, value);
      const empty = remoteCacheKey(`http://127.0.0.1:9/${label}/empty`, '', '"v1"');
      await home.writer.set(empty, { bytes: new Uint8Array(0), etag: null, lastModified: null });
      await home.lose(value);
      const reader = await home.reader();
      expect((await reader.get(empty))?.bytes.byteLength).toBe(0);
      expect(await reader.get(lostKey)).toBeUndefined();
    });
  });
}

remoteCacheCases('memory', async () => {
  const store = new MemoryRemoteCache(80_000);
  return {
    writer: store,
    reader: async () => store,
    // Memory loses the least recently used past its budget: a newer read pushes out the oldest.
    lose: async () => store.set('filler', readOf('filler', 76_000)),
  };
});

describe('memory remote cache', () => {
  it('drops the least recently used past its byte budget, and keeps nothing larger than it', async () => {
    const cache = new MemoryRemoteCache(10_000);
    await cache.set('a', readOf('a', 4_000));
    await cache.set('b', readOf('b', 4_000));
    await cache.get('a');
    await cache.set('c', readOf('c', 4_000));
    expect(await cache.get('a')).toBeDefined();
    expect(await cache.get('b')).toBeUndefined();
    await cache.set('d', readOf('d', 10_001));
    expect(await cache.get('d')).toBeUndefined();
  });
});

// The data folder: read back by a host started again on it (the store closed and opened again).
let data: DataStore;
beforeAll(async () => {
  data = await openTempDataStore();
});
const diskHome = (store: DataStore) => new DiskRemoteCache(new DiskKeptResults(store, new DiskBlobStore(store), 1 << 30));
function folderHarness(make: (store: DataStore) => RemoteCache): () => Promise<CacheHarness> {
  return async () => {
    const lost: string[] = [];
    return {
      writer: make(data),
      async reader() {
        data = await reopenDataStore(data);
        // The folder lost the read's bytes: the file under its kept form's id.
        for (const id of lost.splice(0)) await data.blobs.remove(id);
        return make(data);
      },
      lose: async (value) => void lost.push(computeResultId(keptRead(value))),
    };
  };
}
remoteCacheCases('disk', folderHarness(diskHome));
// Memory in front of the folder: a restarted host has an empty memory and finds the folder's.
remoteCacheCases('memory over disk', folderHarness((store) => new LayeredRemoteCache(new MemoryRemoteCache(1 << 20), diskHome(store))));

// A Redis service: the pointer in Redis, the bytes in its blob store (Redis, then S3).
const redis = fileRedis();
const other: Redis[] = [];
afterAll(() => other.forEach((client) => client.disconnect()));
function serviceHome(blobs: () => ConstructorParameters<typeof BlobRemoteCache>[1], lose: (id: string) => Promise<void>): () => Promise<CacheHarness> {
  return async () => ({
    writer: new BlobRemoteCache(redis.client, blobs(), 60_000),
    async reader() {
      const client = new Redis(redis.server.url);
      other.push(client);
      return new BlobRemoteCache(client, blobs(), 60_000);
    },
    lose: (value) => lose(computeResultId(keptRead(value))),
  });
}
remoteCacheCases('redis', serviceHome(() => new RedisBlobStore(redis.client, null), async (id) => {
  const keys = await redis.client.keys(`vitrine:blob:${id}*`);
  if (keys.length > 0) await redis.client.del(...keys);
}));

const BUCKET = 'vitrine-remote-reads';
const objects = fileS3(BUCKET);
remoteCacheCases('s3', serviceHome(() => new S3BlobStore(objects.s3, { bucket: BUCKET, prefix: 'results/' }, null), async (id) => {
  await objects.s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `results/${id}` }));
}));

describe('memory in front of a shared home that fails', () => {
  it('reads a miss and keeps in memory, never failing the read', async () => {
    const broken: RemoteCache = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
    };
    const warned: string[] = [];
    const cache = new LayeredRemoteCache(new MemoryRemoteCache(1 << 20), broken, (message) => warned.push(message));
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', readOf('k', 100));
    expect((await cache.get('k'))?.bytes.byteLength).toBe(100);
    expect(warned).toHaveLength(2);
  });
});
