/**
 * @module room-log.test
 * The RoomLogStore contract, written once and run against every home of a room's log: one
 * host's MemoryRoomLog, DiskRoomLog in a data folder, and RedisRoomLog on a real redis-server
 * with two stores on connections of their own, as two hosts of a service have them. Seqs run 1, 2, 3, … with no
 * gap nor repeat however many writers append at once; ts never goes back; pages read on with
 * `next_since` and end with `more: false`; a page holds at most 10,000; the newest seq is told
 * alone; entries past the time-to-live go; a change's own fields never overwrite seq, ts, by or
 * type.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DISK } from '../../core/durable/disk-keys.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import { MAX_LOG_PAGE, type LogEntry, type RoomLogStore } from '../../core/history/room-log-store.ts';
import { defineScripts } from '../../core/redis/redis-scripts.ts';
import { room } from '../helpers/room.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** Two stores as two hosts have them (the memory store: one and the same), made with `ttlSeconds`. */
type LogHarness = (ttlSeconds?: number) => [RoomLogStore, RoomLogStore];

const view = (i: number) => ({ type: 'view' as const, by: `user${i % 3}`, change: { view: { opacity: i / 1000 } } });

async function readAll(store: RoomLogStore, roomId: string, limit: number): Promise<LogEntry[]> {
  const all: LogEntry[] = [];
  let since = 0;
  for (;;) {
    const page = await store.read(roomId, since, limit);
    all.push(...page.entries);
    if (!page.more) return all;
    since = page.next_since;
  }
}

function roomLogCases(label: string, make: LogHarness): void {
  describe(`${label} room log`, () => {
    it('numbers entries from 1, stamps ts and by, and answers them after since', async () => {
      const [store] = make();
      const r = room('log');
      expect(await store.read(r, 0, 10)).toEqual({ entries: [], next_since: 0, more: false, last_seq: 0 });
      const before = Date.now();
      const first = await store.append(r, { type: 'view', by: 'ada', change: { view: { opacity: 0.5 }, seq: 99, type: 'x' } });
      expect(first).toEqual({ seq: 1, ts: first.ts, by: 'ada', type: 'view', view: { opacity: 0.5 } });
      expect(Object.keys(first).slice(0, 4)).toEqual(['seq', 'ts', 'by', 'type']);
      expect(first.ts).toBeGreaterThanOrEqual(before);
      await store.append(r, { type: 'snapshot', by: 'bo', change: { snapshot_id: 'abc' } });
      const page = await store.read(r, 1, 10);
      expect(page).toMatchObject({ next_since: 2, more: false, last_seq: 2 });
      expect(page.entries).toEqual([expect.objectContaining({ seq: 2, by: 'bo', type: 'snapshot', snapshot_id: 'abc' })]);
      expect((await store.read(r, 2, 10)).entries).toEqual([]);
      expect((await store.read(r, -1, 10)).entries.map((e) => e.seq)).toEqual([1, 2]);
    });

    it('says the newest seq of a room, 0 for one never written', async () => {
      const [a, b] = make();
      const r = room('log');
      expect(await a.lastSeq(r)).toBe(0);
      await a.append(r, view(1));
      await b.append(r, view(2));
      expect(await b.lastSeq(r)).toBe(2);
      expect(await a.lastSeq(r)).toBe((await a.read(r, 0, 1)).last_seq);
    });

    it('pages with next_since, at most 10,000 at once', async () => {
      const [store] = make();
      const r = room('log');
      for (let i = 0; i < 25; i++) await store.append(r, view(i));
      const first = await store.read(r, 0, 10);
      expect(first.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(first).toMatchObject({ next_since: 10, more: true, last_seq: 25 });
      expect((await readAll(store, r, 7)).map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      const big = room('log');
      await Promise.all(Array.from({ length: MAX_LOG_PAGE + 5 }, (_, i) => store.append(big, view(i))));
      const capped = await store.read(big, 0, 50_000);
      expect(capped.entries).toHaveLength(MAX_LOG_PAGE);
      expect(capped).toMatchObject({ next_since: MAX_LOG_PAGE, more: true });
    });

    it('keeps one order with no gap nor repeat when both hosts append at once, ts never going back', async () => {
      const [a, b] = make();
      const r = room('log');
      const appended = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).append(r, view(i))));
      expect(appended.map((e) => e.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      const all = await readAll(b, r, 64);
      expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      for (let i = 1; i < all.length; i++) expect(all[i]!.ts).toBeGreaterThanOrEqual(all[i - 1]!.ts);
      expect((await a.read(r, 0, 1)).last_seq).toBe(200);
    });

    it('lets entries past the time-to-live go', async () => {
      const [store] = make(0.3);
      const r = room('log');
      await store.append(r, view(1));
      expect((await store.read(r, 0, 10)).entries).toHaveLength(1);
      await waitFor(async () => ((await store.read(r, 0, 10)).entries.length === 0 ? true : undefined), 'the entry to expire');
      const next = await store.append(r, view(2));
      expect(next.seq).toBe(2);
      expect((await store.read(r, 0, 10)).entries.map((e) => e.seq)).toEqual([2]);
    });
  });
}

roomLogCases('memory', (ttl = 3600) => {
  const store = new MemoryRoomLog(ttl);
  return [store, store];
});

let redis: RedisServer;
let data: DataStore;
const connections: Redis[] = [];
beforeAll(async () => {
  redis = await startRedis();
  data = await openTempDataStore();
});
afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
  await data?.close();
});

function redisLog(ttl: number): RoomLogStore {
  const connection = new Redis(redis.url);
  connections.push(connection);
  return new RedisRoomLog(defineScripts(connection), ttl);
}

roomLogCases('redis', (ttl = 3600) => [redisLog(ttl), redisLog(ttl)]);

// A lone host's data folder: one store, as the host has it.
roomLogCases('disk', (ttl = 3600) => {
  const store = new DiskRoomLog(data, ttl);
  return [store, store];
});

describe('disk room log inside the write of a change', () => {
  it('appends only inside a write, and keeps nothing of a write that fails after its entry', async () => {
    const log = new DiskRoomLog(data, 3600);
    const r = `inside-${Math.random().toString(36).slice(2)}`;
    expect(() => log.appendNow(r, view(1))).toThrow('a log entry is appended only inside the write of its change');
    const failing = data.write(() => {
      log.appendNow(r, view(1));
      void data.db(DISK.scenes.name).put(r, { version: 1, layers: [], active: null });
      throw new Error('refused after its entry');
    });
    await expect(failing).rejects.toThrow('refused after its entry');
    expect(await log.read(r, 0, 10)).toEqual({ entries: [], next_since: 0, more: false, last_seq: 0 });
    expect(data.db(DISK.scenes.name).get(r)).toBeUndefined();
    expect((await data.write(() => log.appendNow(r, view(2)))).seq).toBe(1);
  });
});

describe('disk room log across a restart', () => {
  it('keeps every entry and goes on from the last seq', async () => {
    let store = await openTempDataStore();
    const r = `restart-${Math.random().toString(36).slice(2)}`;
    for (let i = 0; i < 3; i++) await new DiskRoomLog(store, 3600).append(r, view(i));
    store = await reopenDataStore(store);
    const log = new DiskRoomLog(store, 3600);
    expect((await log.append(r, view(3))).seq).toBe(4);
    expect((await readAll(log, r, 10)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    await store.close();
  });
});

describe('disk room log expiry', () => {
  it('removes the entries past the time-to-live as the room is written, from a head written before it named its oldest too', async () => {
    let clock = 1_000_000;
    const log = new DiskRoomLog(data, 10, () => clock);
    const r = `expire-${Math.random().toString(36).slice(2)}`;
    const stored = () => [...data.db<LogEntry>(DISK.log.name).getRange(DISK.log.entries(r, 0, Number.MAX_SAFE_INTEGER))].map(({ value }) => value.seq);
    // Entries at 1,000, 1,004, 1,008 and 1,012 s: the fourth append finds the first past the 10 s.
    for (let i = 0; i < 4; i++, clock += 4_000) await log.append(r, view(i));
    expect(stored()).toEqual([2, 3, 4]);
    // At 1,021 s the second and third are past it, though the head named the oldest kept before they were.
    clock = 1_021_000;
    await log.append(r, view(4));
    expect(stored()).toEqual([4, 5]);
    // A head as a folder written before the oldest was kept holds it: the entries are looked at once.
    const heads = data.db<{ seq: number; ts: number }>(DISK.logHeads.name);
    const { seq, ts } = heads.get(r)!;
    await data.write(() => heads.put(r, { seq, ts }));
    clock = 1_040_000;
    await log.append(r, view(5));
    expect(stored()).toEqual([6]);
    expect((await log.read(r, 0, 10)).entries.map((e) => e.seq)).toEqual([6]);
  });
});
