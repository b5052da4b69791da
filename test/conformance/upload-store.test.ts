/**
 * @module upload-store.test
 * The UploadStore contract, written once and run against every implementation: the one-host
 * MemoryUploadStore and DiskUploadStore (a data folder; their clocks moved by the test) and RedisUploadStore on a real redis-server
 * (time moved by shortening every key's time-to-live, as waiting would). Every result type
 * comes back with its arrays' types and values; an upload lives its time-to-live, a refresh
 * starts it again, an unknown or expired id is null everywhere, an id put again keeps working,
 * and bytes the store lost are not reported as stored. Then what each refuses: the memory store
 * an upload larger than its whole budget (null, and counted nowhere), the Redis store one that a
 * Redis out of memory refuses (the 503, and no record pointing at nothing).
 */
import { Redis } from 'ioredis';
import { beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { DiskBlobStore } from '../../core/blobs/disk-blob-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DiskUploadStore } from '../../core/uploads/disk-upload-store.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { resultByteLength } from '../../core/results/to-json-result.ts';
import { RedisBlobStore } from '../../core/blobs/redis-blob-store.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { RedisUploadStore } from '../../core/uploads/redis-upload-store.ts';
import { MemoryUploadStore } from '../../core/uploads/memory-upload-store.ts';
import { uploadId, type UploadStore } from '../../core/uploads/upload-store.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { BLOB_RESULTS } from './blob-store-cases.ts';
import { expectSameResult } from './same-result.ts';

const TTL_SECONDS = 60;
const TTL_MS = TTL_SECONDS * 1000;

/** One result of each type (the blob store's cases; the one larger than a Redis chunk is theirs alone). */
const RESULTS = Object.fromEntries(Object.entries(BLOB_RESULTS).filter(([name]) => name !== 'large'));

/** What a store under test comes with: ways to move its time and to lose an upload's bytes. */
interface UploadHarness {
  store: UploadStore;
  /** Lets `ms` milliseconds pass for everything the store keeps. */
  age(ms: number): Promise<void>;
  /** Takes the upload's bytes away as the store itself may (eviction), leaving the rest. */
  lose(id: string): Promise<void>;
}

let serial = 0;
/** A fresh upload id (distinct per case: the Redis stores of all cases share one server). */
function freshId(): string {
  return uploadId(new TextEncoder().encode(`case ${serial++} ${process.pid}`), 'npy');
}

async function expectGone(store: UploadStore, id: string): Promise<void> {
  expect(await store.refresh(id, 1)).toBeNull();
  expect(await store.typeOf(id)).toBeNull();
  expect(await store.get(id)).toBeNull();
}

function uploadStoreCases(label: string, make: () => UploadHarness): void {
  describe(`${label} upload store`, () => {
    let h: UploadHarness;
    beforeEach(() => {
      h = make();
      onTestFinished(() => h.store.close());
    });

    for (const [name, build] of Object.entries(RESULTS)) {
      it(`keeps a ${name} upload: its info, its type and its result with array types and values`, async () => {
        const id = freshId();
        const info = await h.store.put(id, build(), 1234);
        expect(info).toEqual({ upload_id: id, type: build().type, bytes: 1234, expires_in: TTL_SECONDS });
        expect(await h.store.typeOf(id)).toBe(build().type);
        expectSameResult(await h.store.get(id), build());
      });
    }

    it('answers null for an id it never stored, from every method', async () => {
      await expectGone(h.store, freshId());
    });

    it('refreshes a stored upload: the same info with its whole time-to-live again', async () => {
      const id = freshId();
      await h.store.put(id, RESULTS.mesh!(), 99);
      await h.age(TTL_MS / 2);
      expect(await h.store.refresh(id, 99)).toEqual({ upload_id: id, type: 'mesh', bytes: 99, expires_in: TTL_SECONDS });
    });

    it('drops an upload once its time-to-live has passed, and a refresh starts that time again', async () => {
      const kept = freshId();
      const left = freshId();
      await h.store.put(kept, RESULTS.volume!(), 10);
      await h.store.put(left, RESULTS.volume!(), 10);
      await h.age(TTL_MS * 0.6);
      expect(await h.store.refresh(kept, 10)).not.toBeNull();
      await h.age(TTL_MS * 0.6);
      // Past the first time-to-live: only the refreshed upload is left.
      await expectGone(h.store, left);
      expect(await h.store.typeOf(kept)).toBe('volume');
      expectSameResult(await h.store.get(kept), RESULTS.volume!());
      await h.age(TTL_MS * 0.5);
      await expectGone(h.store, kept);
    });

    it('keeps working when an id is put again (the same bytes parsed twice at once)', async () => {
      const id = freshId();
      expect(await h.store.put(id, RESULTS.point_cloud!(), 5)).not.toBeNull();
      expect(await h.store.put(id, RESULTS.point_cloud!(), 5)).toEqual({ upload_id: id, type: 'point_cloud', bytes: 5, expires_in: TTL_SECONDS });
      expectSameResult(await h.store.get(id), RESULTS.point_cloud!());
      expect(await h.store.refresh(id, 5)).not.toBeNull();
    });

    it('keeps uploads apart: one expiring or lost leaves the others', async () => {
      const [a, b] = [freshId(), freshId()];
      await h.store.put(a, RESULTS.mesh!(), 1);
      await h.store.put(b, RESULTS.image!(), 2);
      await h.lose(a);
      expect(await h.store.typeOf(b)).toBe('image');
      expectSameResult(await h.store.get(b), RESULTS.image!());
    });

    it('does not report an upload whose bytes it lost as stored, and takes it again', async () => {
      const id = freshId();
      await h.store.put(id, RESULTS.mesh!(), 7);
      await h.lose(id);
      expect(await h.store.get(id)).toBeNull();
      // The host asks refresh first: a lost upload must be parsed and put again, not named.
      expect(await h.store.refresh(id, 7)).toBeNull();
      expect(await h.store.put(id, RESULTS.mesh!(), 7)).not.toBeNull();
      expectSameResult(await h.store.get(id), RESULTS.mesh!());
    });
  });
}

/** A memory store that remembers what was put in it, so a case can have the budget evict one upload. */
class WatchedMemoryStore extends MemoryUploadStore {
  readonly results = new Map<string, StoredResult>();
  override put(id: string, result: StoredResult, bytes: number): ReturnType<UploadStore['put']> {
    this.results.set(id, result);
    return super.put(id, result, bytes);
  }
}

// The memory store on a clock the test moves, in a budget of its own.
uploadStoreCases('memory', () => {
  let now = 1_000_000;
  const budget = new ResultBudget<StoredResult>(1024 * 1024, resultByteLength);
  const store = new WatchedMemoryStore(budget, TTL_SECONDS, () => now);
  return {
    store,
    age: async (ms) => void (now += ms),
    // The budget never evicts a pinned upload for other results: only a release from outside loses it.
    lose: async (id) => budget.release(store.results.get(id)!, `upload:${id}`),
  };
});

// The data folder's store, on a clock the test moves.
let disk: DataStore;
beforeAll(async () => {
  disk = await openTempDataStore();
});
uploadStoreCases('disk', () => {
  let now = 1_000_000;
  const blobs = new DiskBlobStore(disk, () => now);
  const store = new DiskUploadStore(disk, blobs, TTL_SECONDS, () => now);
  return {
    store,
    age: async (ms) => void (now += ms),
    lose: async (id) => {
      const record = disk.db<{ hash: string }>('uploads').get(id);
      if (record) await disk.blobs.remove(record.hash);
    },
  };
});

describe('disk upload store, a host started anew', () => {
  it('still has the upload as it was put', async () => {
    const store = await openTempDataStore();
    const id = freshId();
    const result = RESULTS.volume!();
    await new DiskUploadStore(store, new DiskBlobStore(store), TTL_SECONDS).put(id, result, 99);
    const again = await reopenDataStore(store);
    const uploads: UploadStore = new DiskUploadStore(again, new DiskBlobStore(again), TTL_SECONDS);
    expect(await uploads.typeOf(id)).toBe('volume');
    expectSameResult(await uploads.get(id), result);
    expect(await uploads.refresh(id, 99)).toMatchObject({ upload_id: id, type: 'volume', bytes: 99 });
  });
});

describe('memory upload store, its budget', () => {
  function storeIn(maxBytes: number): { store: UploadStore; budget: ResultBudget<StoredResult> } {
    const own = new ResultBudget<StoredResult>(maxBytes, resultByteLength);
    const store = new MemoryUploadStore(own, TTL_SECONDS);
    onTestFinished(() => store.close());
    return { store, budget: own };
  }

  it('refuses an upload larger than the whole budget with null, and holds none of it', async () => {
    const { store, budget: own } = storeIn(1024);
    const id = freshId();
    const big: StoredResult = { type: 'mesh', vertices: new Float32Array(512), indices: new Uint32Array(3) };
    expect(await store.put(id, big, 2060)).toBeNull();
    await expectGone(store, id);
    expect(own.totalBytes).toBe(0);
  });

  it('counts an id put twice once: the earlier result leaves the budget, the newer stays when others push it', async () => {
    const { store, budget: own } = storeIn(4096);
    const id = freshId();
    await store.put(id, RESULTS.volume!(), 1);
    await store.put(id, RESULTS.volume!(), 1);
    expect(own.size).toBe(1);
    expect(own.totalBytes).toBe(resultByteLength(RESULTS.volume!()));
    // Other uploads come and go; the id still answers.
    for (let i = 0; i < 3; i++) await store.put(freshId(), RESULTS.mesh!(), 1).catch(() => null);
    expectSameResult(await store.get(id), RESULTS.volume!());
  });

  it('keeps an upload whatever computed results pass through, and refuses a new one (507) once uploads fill the budget', async () => {
    const { store, budget: own } = storeIn(4096);
    const id = freshId();
    await store.put(id, RESULTS.volume!(), 1);
    for (let i = 0; i < 20; i++) own.hold({ type: 'volume', shape: [1, 1, 256], dtype: 'float32', data: new Float32Array(256) }, `room:${i}`, () => {});
    expectSameResult(await store.get(id), RESULTS.volume!());
    const big: StoredResult = { type: 'mesh', vertices: new Float32Array(1020), indices: new Uint32Array(3) };
    await expect(store.put(freshId(), big, 1)).rejects.toMatchObject({ statusCode: 507, code: 'SPC_ERR_HOST_CANNOT_KEEP' });
    expectSameResult(await store.get(id), RESULTS.volume!());
  });
});

const redis = fileRedis();

/** Every key of the store, its time-to-live shortened by `ms` (deleted when that ends it), as time passing would. */
async function ageRedis(target: Redis, ms: number): Promise<void> {
  for (const key of await target.keys('vitrine:*')) {
    const left = await target.pttl(key);
    if (left < 0) continue;
    if (left <= ms) await target.del(key);
    else await target.pexpire(key, left - ms);
  }
}

async function blobKeysOf(target: Redis, id: string): Promise<string[]> {
  const raw = await target.get(KEYS.upload(id));
  if (!raw) return [];
  const { hash } = JSON.parse(raw) as { hash: string };
  return target.keys(`vitrine:blob:${hash}*`);
}

uploadStoreCases('redis', () => ({
  // No byte budget: every get reads Redis, never a memory copy.
  store: new RedisUploadStore(redis.client, new RedisBlobStore(redis.client, null), TTL_SECONDS),
  age: (ms) => ageRedis(redis.client, ms),
  lose: async (id) => {
    const keys = await blobKeysOf(redis.client, id);
    if (keys.length > 0) await redis.client.del(...keys);
  },
}));

describe('redis upload store, in Redis', () => {
  it('gives the record and every byte of the upload the upload time-to-live', async () => {
    const store = new RedisUploadStore(redis.client, new RedisBlobStore(redis.client, null), TTL_SECONDS);
    const id = freshId();
    await store.put(id, RESULTS.volume!(), 3);
    const keys = [KEYS.upload(id), ...(await blobKeysOf(redis.client, id))];
    expect(keys.length).toBeGreaterThan(1);
    for (const key of keys) {
      const left = await redis.client.pttl(key);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(TTL_MS);
    }
  });

  it('answers the 503 when Redis is out of memory, keeping no record of the refused upload', async () => {
    const full = await startRedis({ args: ['--maxmemory', '6mb', '--maxmemory-policy', 'noeviction'] });
    const fullClient = new Redis(full.url);
    try {
      const store = new RedisUploadStore(fullClient, new RedisBlobStore(fullClient, null), TTL_SECONDS);
      const id = freshId();
      const big: StoredResult = { type: 'mesh', vertices: new Float32Array(2 * 1024 * 1024), indices: new Uint32Array(3) };
      await expect(store.put(id, big, 8 * 1024 * 1024)).rejects.toMatchObject({
        code: 'SPC_ERR_REDIS_UNAVAILABLE',
        statusCode: 503,
        message: expect.stringMatching(/out of memory/),
      });
      await expectGone(store, id);
      // What was refused holds no memory: a small upload goes in once Redis has let go of the
      // refused request's own buffers.
      const small = freshId();
      expect(await waitFor(() => store.put(small, RESULTS.mesh!(), 1), 'a small upload to be stored by the full Redis')).not.toBeNull();
      expectSameResult(await store.get(small), RESULTS.mesh!());
    } finally {
      fullClient.disconnect();
      await full.stop();
    }
  });
});
