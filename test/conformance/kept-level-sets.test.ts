/**
 * @module kept-level-sets.test
 * The KeptLevelSets contract, written once and run against every home of kept level sets:
 * one process's memory, a lone host's data folder (read back after the store is closed and
 * opened again, as a restarted host does), and a Redis service whose blob store is Redis or
 * S3 (Swift with s3api), each read back by a second home on a connection of its own (another
 * host of the service). A set comes back whole under its name and under no other; a home
 * that lost its bytes reads as a miss; packed bytes that are not a whole set read as none.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../core/blobs/disk-blob-store.ts';
import { DiskKeptResults } from '../../core/blobs/disk-kept-results.ts';
import { RedisBlobStore } from '../../core/blobs/redis-blob-store.ts';
import { S3BlobStore } from '../../core/blobs/s3-blob-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { MeshBuilder } from '../../core/geometry/mesh-builder.ts';
import { DiskKeptLevelSets } from '../../core/meshes/disk-kept-level-sets.ts';
import { keptForm, levelSetName, type KeptLevelSets } from '../../core/meshes/kept-level-sets.ts';
import { unpackLevelSet, type SegmentLods } from '../../core/meshes/level-set.ts';
import { MemoryKeptLevelSets } from '../../core/meshes/memory-kept-level-sets.ts';
import { RedisKeptLevelSets } from '../../core/meshes/redis-kept-level-sets.ts';
import { IDENTITY } from '../../core/meshes/lod-sources.ts';
import { buildSegmentLods } from '../../core/meshes/segment-lods.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { computeResultId } from '../../core/results/result-id.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { fileS3 } from '../helpers/file-s3.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';

/** A bumpy sphere of about 20,000 triangles: enough for several levels. */
function sphere(): { positions: Float32Array; indices: Uint32Array } {
  const rings = 100;
  const segments = 100;
  const builder = new MeshBuilder((rings + 1) * segments);
  for (let i = 0; i <= rings; i++) {
    const theta = (i / rings) * Math.PI;
    for (let j = 0; j < segments; j++) {
      const phi = (j / segments) * 2 * Math.PI;
      const r = 20 + Math.sin(5 * theta) * Math.cos(3 * phi);
      builder.vertex(r * Math.sin(theta) * Math.cos(phi), r * Math.sin(theta) * Math.sin(phi), r * Math.cos(theta));
    }
  }
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * segments + j, b = i * segments + ((j + 1) % segments);
      builder.triangle(a, a + segments, b);
      builder.triangle(b, a + segments, b + segments);
    }
  }
  return { positions: builder.positions.subarray(0, builder.vertexCount * 3), indices: builder.indices.subarray(0, builder.indexCount) };
}

let lods: SegmentLods;
let keptId: string;
beforeAll(async () => {
  lods = await buildSegmentLods({ ...sphere(), transform: IDENTITY });
  keptId = computeResultId(keptForm(lods.packed));
}, 120_000);

/** A home of kept sets: a writer, a reader of the same home (another process or host), and how it loses a set. */
interface KeptHarness {
  writer: KeptLevelSets;
  reader(): Promise<KeptLevelSets>;
  lose(name: string): Promise<void>;
}

const same = (back: SegmentLods | null) => {
  expect(back).not.toBeNull();
  const { packed, manifest, draco, glb, ...rest } = back!;
  const { packed: p, manifest: m, draco: d, glb: g, ...want } = lods;
  expect(rest).toEqual(want);
  for (const [got, expected] of [[packed, p], [manifest, m], [draco, d], [glb, g]] as const) expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
};

function keptLevelSetCases(label: string, make: () => Promise<KeptHarness>): void {
  describe(`${label} kept level sets`, () => {
    it('gives a set back whole under its name, to another reader of the home, and nothing under another name', async () => {
      const home = await make();
      const name = levelSetName(`${label}-result`, 3);
      await home.writer.keep(name, lods, keptId);
      const reader = await home.reader();
      same(await reader.find(name));
      expect(await reader.find(levelSetName(`${label}-result`, 4))).toBeNull();
      expect(await reader.find(levelSetName(`${label}-other`, 3))).toBeNull();
    });

    it('reads a set its home lost as a miss', async () => {
      const home = await make();
      const name = levelSetName(`${label}-lost`, 1);
      await home.writer.keep(name, lods, keptId);
      await home.lose(name);
      expect(await (await home.reader()).find(name)).toBeNull();
    });
  });
}

describe('packed level sets', () => {
  it('unpack whole, and bytes that are not a whole set of this format read as none', () => {
    same(unpackLevelSet(lods.packed));
    const copy = (change: (bytes: Uint8Array) => Uint8Array) => change(Uint8Array.from(lods.packed));
    expect(unpackLevelSet(copy((b) => b.subarray(0, b.byteLength - 1).slice()))).toBeNull();
    expect(unpackLevelSet(copy((b) => ((b[4] = 9), b)))).toBeNull(); // another format
    expect(unpackLevelSet(copy((b) => ((b[0] = 0), b)))).toBeNull(); // not a set
    expect(unpackLevelSet(new Uint8Array(8))).toBeNull();
  });

  it('are named by result, segment and format', () => {
    const names = new Set([levelSetName('a', 1), levelSetName('a', 2), levelSetName('b', 1)]);
    expect(names.size).toBe(3);
    expect(levelSetName('a', 1)).toMatch(/^[0-9a-f]{64}$/);
  });
});

keptLevelSetCases('memory', async () => {
  const store = new MemoryKeptLevelSets();
  return { writer: store, reader: async () => store, lose: async (name) => store.forget(name) };
});

// The data folder: read back by a host started again on it (the store closed and opened again).
let data: DataStore;
beforeAll(async () => {
  data = await openTempDataStore();
});
keptLevelSetCases('disk', async () => {
  const diskHome = (store: DataStore) => new DiskKeptLevelSets(new DiskKeptResults(store, new DiskBlobStore(store), 1 << 30));
  let lost = '';
  return {
    writer: diskHome(data),
    async reader() {
      data = await reopenDataStore(data);
      // The folder lost the set's bytes: the file under its kept form's id.
      if (lost) await data.blobs.remove(keptId);
      return diskHome(data);
    },
    lose: async (name) => void (lost = name),
  };
});

// A Redis service: the pointer in Redis, the bytes in its blob store (Redis, then S3).
const redis = fileRedis();
const other: Redis[] = [];
afterAll(() => other.forEach((client) => client.disconnect()));
function serviceHome(blobs: () => ConstructorParameters<typeof RedisKeptLevelSets>[1], lose: (name: string) => Promise<void>): () => Promise<KeptHarness> {
  return async () => ({
    writer: new RedisKeptLevelSets(redis.client, blobs(), 60_000),
    async reader() {
      const client = new Redis(redis.server.url);
      other.push(client);
      return new RedisKeptLevelSets(client, blobs(), 60_000);
    },
    lose,
  });
}
keptLevelSetCases('redis', serviceHome(() => new RedisBlobStore(redis.client, null), async () => {
  const keys = await redis.client.keys(`vitrine:blob:${keptId}*`);
  if (keys.length > 0) await redis.client.del(...keys);
}));

const BUCKET = 'vitrine-levels';
const objects = fileS3(BUCKET);
keptLevelSetCases('s3', serviceHome(() => new S3BlobStore(objects.s3, { bucket: BUCKET, prefix: 'results/' }, null), async () => {
  await objects.s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `results/${keptId}` }));
}));

describe('a name whose set is gone', () => {
  it('points at nothing once its pointer is gone too', async () => {
    const home = new RedisKeptLevelSets(redis.client, new RedisBlobStore(redis.client, null), 60_000);
    const name = levelSetName('pointer', 1);
    await home.keep(name, lods, keptId);
    await redis.client.del(KEYS.meshLevels(name));
    expect(await home.find(name)).toBeNull();
  });
});
