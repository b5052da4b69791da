/**
 * @module snapshot-store.test
 * The SnapshotStore and ResultPins contract, written once and run against every home: one
 * host's memory (records in a map, results pinned in a byte budget) and a Redis service (records
 * in a real redis-server, results' blobs kept in its blob store). A record comes back as it was
 * put, with the rooms it was taken of, and is gone after its time-to-live; pinned results stay
 * whole whatever else the holder does, and results lost anyway are reported lost; a snapshot
 * taken of a room is in that room's log with it, one taken in from a file in none. A lone host's
 * data folder is the third home (records in its store, results as blobs in its folder), and
 * keeps both across a restart. Then
 * what only one home does: the memory pins never let the budget evict them, and past the budget a
 * new snapshot's pins are refused (507) while the older ones hold; a Redis blob evicted from
 * under a pin is seen as lost.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../core/blobs/disk-blob-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { BlobResultPins } from '../../core/snapshots/blob-result-pins.ts';
import { DiskSnapshotStore } from '../../core/snapshots/disk-snapshot-store.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { RedisBlobStore } from '../../core/blobs/redis-blob-store.ts';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { defineScripts } from '../../core/redis/redis-scripts.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { resultByteLength } from '../../core/results/to-json-result.ts';
import { MemoryResultPins, MemorySnapshotStore } from '../../core/snapshots/memory-snapshot-store.ts';
import { RedisSnapshotStore } from '../../core/snapshots/redis-snapshot-store.ts';
import type { ResultPins, SnapshotStore } from '../../core/snapshots/snapshot-store.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import type { RoomLogStore } from '../../core/history/room-log-store.ts';

let serial = 0;
/** A volume no other case made (its bytes differ), of `n` float32 samples. */
function volume(n = 64): StoredResult {
  const data = new Float32Array(n).map((_, i) => i + serial * 1000);
  serial++;
  return { type: 'volume', shape: [1, 1, n], dtype: 'float32', data };
}
const id = () => `${process.pid}${serial++}`.padEnd(64, 'a');

interface SnapshotHarness {
  store: SnapshotStore;
  pins: ResultPins;
  /** Lets the holder drop every result it holds for any other reason (rooms moved on, caches cleared). */
  dropOthers(results: StoredResult[]): void;
  /** The rooms' log the store appends a snapshot taken to. */
  log: RoomLogStore;
}

function snapshotCases(label: string, make: () => SnapshotHarness): void {
  describe(`${label} snapshot store`, () => {
    it('answers a record as it was put, and nothing once its time-to-live has passed', async () => {
      const { store } = make();
      const key = id();
      expect(await store.get(key)).toBeNull();
      await store.put(key, { json: '{"scene":{}}', created: 1234, pins: [1, 'two'] }, 60_000);
      expect(await store.get(key)).toEqual({ json: '{"scene":{}}', created: 1234, pins: [1, 'two'] });
      // The rooms it was taken of come back with it; a record of no room's names none.
      const owned = id();
      await store.put(owned, { json: '{"scene":{}}', created: 99, pins: null, rooms: ['a', 'b'] }, 60_000);
      expect(await store.get(owned)).toEqual({ json: '{"scene":{}}', created: 99, pins: null, rooms: ['a', 'b'] });
      expect(Object.keys((await store.get(key))!)).not.toContain('rooms');
      const short = id();
      await store.put(short, { json: '{}', created: 1, pins: null }, 30);
      await waitFor(async () => ((await store.get(short)) === null ? true : undefined), 'the short-lived record to expire');
    });

    it('logs a snapshot taken of a room with it, and answers that entry; one of no room is in no log', async () => {
      const { store, log } = make();
      const [taken, imported, roomId] = [id(), id(), `snap-log-${id().slice(0, 12)}`];
      const entry = await store.put(taken, { json: '{"scene":{}}', created: 1, pins: null, rooms: [roomId] }, 60_000, roomId);
      expect(entry).toMatchObject({ seq: 1, type: 'snapshot', by: 'host', snapshot_id: taken });
      expect(await store.put(imported, { json: '{}', created: 2, pins: null }, 60_000)).toBeNull();
      expect(await entriesOf(log, roomId)).toEqual([entry]);
      expect(await store.get(imported)).toMatchObject({ json: '{}' });
    });

    it('keeps pinned results whole whatever else lets them go', async () => {
      const h = make();
      const results = [volume(), volume(256)];
      const key = id();
      const pins = await h.pins.pin(key, results, 60_000);
      h.dropOthers(results);
      expect(await h.pins.intact(key, pins)).toBe(true);
      expect(await h.pins.intact(id(), [])).toBe(label !== 'memory');
    });
  });
}

snapshotCases('memory', () => {
  const budget = new ResultBudget<StoredResult>(64 * 1024 * 1024, resultByteLength);
  const log = new MemoryRoomLog(3600);
  return {
    store: new MemorySnapshotStore(log),
    log,
    pins: new MemoryResultPins(budget),
    dropOthers: (results) => {
      for (const result of results) budget.hold(result, 'room:x', () => {});
      for (const result of results) budget.release(result, 'room:x');
    },
  };
});

describe('memory pins', () => {
  it('are never evicted by the budget, and past it refuse a new snapshot rather than drop an older one', async () => {
    const budget = new ResultBudget<StoredResult>(2_500, resultByteLength);
    const pins = new MemoryResultPins(budget);
    const first = [volume(256)];
    await pins.pin('first', first, 60_000);
    // Room entries past the budget push out each other, never a pinned result.
    for (let i = 0; i < 20; i++) budget.hold(volume(256), `room:r${i}`, () => {});
    expect(await pins.intact('first')).toBe(true);
    await pins.pin('second', [volume(256)], 60_000);
    await expect(pins.pin('third', [volume(256)], 60_000)).rejects.toMatchObject({ statusCode: 507, code: 'SPC_ERR_HOST_CANNOT_KEEP' });
    expect(await pins.intact('first')).toBe(true);
    expect(await pins.intact('second')).toBe(true);
    expect(await pins.intact('third')).toBe(false);
    // The same results again cost nothing more.
    await pins.pin('first again', first, 60_000);
    expect(budget.pinnedBytes).toBeLessThanOrEqual(2_500);
    pins.close();
    expect(budget.pinnedBytes).toBe(0);
  });
});

const redis = fileRedis();

snapshotCases('redis', () => {
  const scripted = defineScripts(redis.client);
  const log = new RedisRoomLog(scripted, 3600);
  return { store: new RedisSnapshotStore(scripted, log), log, pins: new BlobResultPins(new RedisBlobStore(redis.client, null)), dropOthers: () => {} };
});

describe('redis pins', () => {
  it('lengthen a blob’s life to the snapshot’s, and see one evicted anyway as lost', async () => {
    const blobs = new RedisBlobStore(redis.client, null);
    const pins = new BlobResultPins(blobs);
    const result = volume(128);
    const stored = await blobs.put(result, 1_000);
    const refs = await pins.pin('kept', [result], 3_600_000);
    expect(await redis.client.pttl(KEYS.blob(stored.hash))).toBeGreaterThan(3_000_000);
    expect(await pins.intact('kept', refs)).toBe(true);
    await redis.client.del(KEYS.blobChunk(stored.hash, 0));
    expect(await pins.intact('kept', refs)).toBe(false);
  });
});

let disk: DataStore;
beforeAll(async () => {
  disk = await openTempDataStore();
});

snapshotCases('disk', () => {
  const log = new DiskRoomLog(disk, 3600);
  return { store: new DiskSnapshotStore(disk, log), log, pins: new BlobResultPins(new DiskBlobStore(disk)), dropOthers: () => {} };
});

describe('disk snapshots', () => {
  it('keep the record and every pinned byte for a host started anew, and see a lost blob as lost', async () => {
    const store = await openTempDataStore();
    const result = volume(128);
    const refs = await new BlobResultPins(new DiskBlobStore(store)).pin('kept', [result], 3_600_000);
    await new DiskSnapshotStore(store, new DiskRoomLog(store, 3600)).put('kept', { json: '{"a":1}', created: 5, pins: refs }, 3_600_000);
    const again = await reopenDataStore(store);
    const blobs = new DiskBlobStore(again);
    expect(await new DiskSnapshotStore(again, new DiskRoomLog(again, 3600)).get('kept')).toEqual({ json: '{"a":1}', created: 5, pins: refs });
    const pins = new BlobResultPins(blobs);
    expect(await pins.intact('kept', refs)).toBe(true);
    expect(await blobs.find(refs[0]!.hash)).toMatchObject({ type: 'volume', shape: [1, 1, 128] });
    await again.blobs.remove(refs[0]!.hash);
    expect(await pins.intact('kept', refs)).toBe(false);
  });
});
