/**
 * @module annotation-store.test
 * The AnnotationStore cases (annotation-store-cases.ts) on every implementation: the memory
 * store of a lone host, the disk store of its data folder (kept across a restart), and the
 * Redis store on a real redis-server with its events arriving through the service's subscription. Then what only a service has: two hosts' stores adding
 * at once in one room make no id twice and lose nothing, an annotation one host wrote is read
 * by another and by a store made after it (a restarted host), and a Redis that went away is a
 * 503 in the service's words. Last, the memory store's bound across rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ANNOTATIONS } from '../../core/annotations/annotation-store.ts';
import { DiskAnnotationStore } from '../../core/annotations/disk-annotation-store.ts';
import { MemoryAnnotationStore } from '../../core/annotations/memory-annotation-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DISK } from '../../core/durable/disk-keys.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { RedisAnnotationStore } from '../../core/annotations/redis-annotation-store.ts';
import { EventHub } from '../../core/events/event-hub.ts';
import type { Annotation, AnnotationInput } from '../../core/wire/scene-types.ts';
import type { LogEntry } from '../../core/history/room-log-store.ts';
import { HostError } from '../../core/errors.ts';
import { createRedisConnections, type RedisConnections } from '../../core/redis/redis-connections.ts';
import { RedisEvents } from '../../core/redis/redis-events.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { room } from '../helpers/room.ts';
import { annotationStoreCases } from './annotation-store-cases.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import { entriesOf } from '../helpers/home-logs.ts';

const memoryHub = new EventHub();
const memoryLog = new MemoryRoomLog(3600);
annotationStoreCases('memory', () => ({
  hub: memoryHub,
  store: (maxPerRoom) => new MemoryAnnotationStore(memoryHub, { maxPerRoom, maxPerHost: 10 * maxPerRoom }, memoryLog),
  log: memoryLog,
}));

let disk: DataStore;
const diskHub = new EventHub();
beforeAll(async () => {
  disk = await openTempDataStore();
});
/** A disk store over `store`'s room log (what a lone host's assembly gives it). */
const onDisk = (store: DataStore, hub: EventHub, maxPerRoom: number, staging?: ConstructorParameters<typeof DiskAnnotationStore>[5]) =>
  new DiskAnnotationStore(store, hub, maxPerRoom, new DiskRoomLog(store, 3600), Date.now, staging);
annotationStoreCases('disk', () => ({ hub: diskHub, store: (maxPerRoom) => onDisk(disk, diskHub, maxPerRoom), log: new DiskRoomLog(disk, 3600) }));
// Every batch of three or more written as a large import is: hidden, a chunk per transaction, then shown.
annotationStoreCases('disk, batches staged', () => ({
  hub: diskHub,
  store: (maxPerRoom) => onDisk(disk, diskHub, maxPerRoom, { from: 3, chunk: 1000 }),
  log: new DiskRoomLog(disk, 3600),
}));

describe('disk annotation store, a large import', () => {
  const marks = (n: number, at = 0): AnnotationInput[] => Array.from({ length: n }, (_, i) => ({ kind: 'point', points: [[at + i, 0, 0]] }));

  it('shows nothing of an import until it ends; one a crash stopped is removed when the store opens again', async () => {
    const store = await openTempDataStore();
    const r = room('ann');
    let stopped!: () => void;
    const atStop = new Promise<void>((resolve) => (stopped = resolve));
    const never = new Promise<void>(() => {});
    const afterChunk = async (written: number) => (written >= 8 ? (stopped(), never) : undefined);
    // Room for 25: 2 marks, 20 being imported, 1 added meanwhile; 3 more (or 8, an import) do not fit.
    const first = onDisk(store, new EventHub(), 25, { from: 5, chunk: 4, afterChunk });
    await first.add(r, marks(2));
    void first.add(r, marks(20, 100));
    await atStop;
    expect(await first.list(r)).toMatchObject({ version: 2, annotations: [{ id: '1' }, { id: '2' }] });
    expect(await first.get(r, '3')).toBeNull();
    await expect(first.change(r, '3', { label: 'x' })).rejects.toThrow(HostError);
    // Its ids and its room in the limit are held for it meanwhile.
    expect((await first.add(r, marks(1))).annotations[0]!.id).toBe('23');
    await expect(first.add(r, marks(3))).rejects.toMatchObject({ code: 'SPC_ERR_ANNOTATIONS_FULL' });
    await expect(first.add(r, marks(8))).rejects.toMatchObject({ code: 'SPC_ERR_ANNOTATIONS_FULL' });

    const reopened = await reopenDataStore(store);
    const again = onDisk(reopened, new EventHub(), 100);
    const list = await again.list(r);
    expect(list.version).toBe(3);
    expect(list.annotations.map((a) => a.id)).toEqual(['1', '2', '23']);
    expect([...reopened.db(DISK.annotations.name).getKeys(DISK.annotations.marks(r))]).toHaveLength(3);
    expect([...reopened.db(DISK.annotationImports.name).getKeys({})]).toEqual([]);
    // The log never heard of the import: only the writes the room shows are in it.
    const logged = await entriesOf(new DiskRoomLog(reopened, 3600), r);
    expect(logged.map((e) => [e.op, (e.annotations as { id: string }[]).map((a) => a.id), e.version])).toEqual([
      ['add', ['1', '2'], 2],
      ['add', ['23'], 3],
    ]);
    expect((await again.add(r, marks(97))).annotations).toHaveLength(97);
  });

  it('leaves nothing of an import whose write failed midway', async () => {
    const store = await openTempDataStore();
    const r = room('ann');
    const afterChunk = async (written: number) => {
      if (written >= 4) throw new Error('the disk went away');
    };
    const failing = onDisk(store, new EventHub(), 100, { from: 5, chunk: 2, afterChunk });
    await expect(failing.add(r, marks(10))).rejects.toThrow('the disk went away');
    expect(await failing.list(r)).toEqual({ version: 0, annotations: [] });
    expect([...store.db(DISK.annotations.name).getKeys(DISK.annotations.marks(r))]).toHaveLength(0);
    expect(await entriesOf(new DiskRoomLog(store, 3600), r)).toEqual([]);
    const added = await failing.add(r, marks(3));
    expect(added.version).toBe(3);
  });
});

describe('disk annotation store, an import\'s log entries encoded before the write that shows it', () => {
  const marks = (n: number): AnnotationInput[] => Array.from({ length: n }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]] }));
  const summary = (entries: LogEntry[]) => entries.map((e) => [e.seq, e.type, e.op, (e.annotations as { id: string }[] | undefined)?.length, e.version]);

  it('are the entries the log answers, or made again when another write came between', async () => {
    const store = await openTempDataStore();
    const log = new DiskRoomLog(store, 3600);
    const [quiet, viewed, added] = [room('ann'), room('ann'), room('ann')];
    let between: (() => Promise<unknown>) | undefined;
    // Once an import's marks are written, and before it is shown: a view (the log moves) or a mark (the room moves too).
    const afterChunk = async (written: number) => void (written === 2001 ? between?.() : undefined);
    const marksStore = onDisk(store, new EventHub(), 10_000, { from: 5, chunk: 2001, afterChunk });
    await marksStore.add(quiet, marks(2001));
    expect(summary(await entriesOf(log, quiet))).toEqual([
      [1, 'annotation', 'add', 2000, 2000],
      [2, 'annotation', 'add', 1, 2001],
    ]);
    expect((await entriesOf(log, quiet)).flatMap((e) => (e.annotations as Annotation[]).map((a) => a.id))).toEqual(
      (await marksStore.list(quiet)).annotations.map((a) => a.id),
    );
    between = () => log.append(viewed, { type: 'view', by: 'ada', change: { view: { opacity: 0.5 } } });
    await marksStore.add(viewed, marks(2001));
    expect(summary(await entriesOf(log, viewed))).toEqual([
      [1, 'view', undefined, undefined, undefined],
      [2, 'annotation', 'add', 2000, 2000],
      [3, 'annotation', 'add', 1, 2001],
    ]);
    between = () => marksStore.add(added, marks(1));
    await marksStore.add(added, marks(2001));
    expect(summary(await entriesOf(log, added))).toEqual([
      [1, 'annotation', 'add', 1, 1],
      [2, 'annotation', 'add', 2000, 2001],
      [3, 'annotation', 'add', 1, 2002],
    ]);
    expect((await marksStore.list(added)).version).toBe(2002);
  });
});

describe('disk annotation store, a host started anew', () => {
  it('reads every annotation and goes on from the room version and ids it had', async () => {
    const store = await openTempDataStore();
    const r = room('ann');
    const first = onDisk(store, new EventHub(), 100);
    const added = await first.add(r, [{ kind: 'point', points: [[1, 2, 3]] }, { kind: 'point', points: [[4, 5, 6]] }]);
    await first.remove(r, added.annotations[1]!.id);
    const again = onDisk(await reopenDataStore(store), new EventHub(), 100);
    const list = await again.list(r);
    expect(list).toEqual({ version: 3, annotations: [added.annotations[0]] });
    const next = await again.add(r, [{ kind: 'point', points: [[7, 8, 9]] }]);
    expect(next.version).toBe(4);
    expect(next.annotations[0]!.id).toBe('3');
  });
});

let redis: RedisServer;
const opened: RedisConnections[] = [];
const redisHub = new EventHub();

/** A host's connections to the test's Redis, its room events handed to `hub`. */
async function connect(hub = new EventHub()): Promise<RedisConnections> {
  const connections = createRedisConnections(redis.url);
  opened.push(connections);
  await new RedisEvents(connections.subscriber, hub).start();
  await connections.ready(10_000);
  return connections;
}

let shared: RedisConnections;
beforeAll(async () => {
  redis = await startRedis();
  shared = await connect(redisHub);
}, 30_000);
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
});

annotationStoreCases('redis', () => {
  const log = new RedisRoomLog(shared.command, 3600);
  return { hub: redisHub, store: (maxPerRoom) => new RedisAnnotationStore(shared.command, maxPerRoom, log), log };
});

/** A store of a host on `connections`, over that host's handle on the service's logs. */
const onRedis = (connections: RedisConnections) =>
  new RedisAnnotationStore(connections.command, DEFAULT_MAX_ANNOTATIONS, new RedisRoomLog(connections.command, 3600));

describe('redis annotation store, across hosts', () => {
  it('two hosts adding at once in one room make no id twice and lose none', async () => {
    const [a, b] = [await connect(), await connect()];
    const stores = [onRedis(a), onRedis(b)];
    const r = room('ann');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        stores[i % 2]!.add(r, [
          { kind: 'point', points: [[i, 0, 0]] },
          { kind: 'point', points: [[i, 1, 0]] },
        ]),
      ),
    );
    const ids = answers.flatMap((x) => x.annotations.map((y) => y.id));
    expect(new Set(ids).size).toBe(400);
    const versions = answers.map((x) => x.version).sort((p, q) => p - q);
    expect(new Set(versions).size).toBe(200);
    expect(versions.at(-1)).toBe(400);
    const [listA, listB] = await Promise.all(stores.map((s) => s.list(r)));
    expect(listA).toEqual(listB);
    expect(listA!.annotations.map((x) => x.id)).toEqual(Array.from({ length: 400 }, (_, i) => String(i + 1)));
    // One entry per write in the room's log, in the order of the versions they made.
    const logged = (await entriesOf(new RedisRoomLog(a.command, 3600), r)).map((e) => e.version);
    expect(logged).toEqual(versions);
  });

  it('keeps what one host wrote for another and for a store made later (a restarted host)', async () => {
    const r = room('ann');
    const first = onRedis(await connect());
    const { annotations } = await first.add(r, [{ kind: 'polyline', points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]], label: 'path', author: 'ana' }]);
    const later = onRedis(await connect());
    expect(await later.list(r)).toEqual({ version: 1, annotations });
    expect((await later.add(r, [{ kind: 'point', points: [[0, 0, 0]] }])).annotations[0]!.id).toBe('2');
  });

  it('answers 503 in the service’s words while Redis is away, and works again when it is back', async () => {
    const connections = await connect();
    const store = onRedis(connections);
    const r = room('ann');
    await store.add(r, [{ kind: 'point', points: [[0, 0, 0]] }]);
    redis.freeze();
    try {
      const error = (await store.list(r).catch((e: unknown) => e)) as HostError;
      expect(error).toBeInstanceOf(HostError);
      expect(error.statusCode).toBe(503);
      expect(error.message).not.toMatch(/Command timed out|ioredis/i);
    } finally {
      redis.thaw();
    }
    expect((await store.list(r)).annotations).toHaveLength(1);
  });
});

describe('memory annotation store, across rooms', () => {
  it('keeps at most its host-wide number of annotations, and takes more once some went', async () => {
    const store = new MemoryAnnotationStore(new EventHub(), { maxPerRoom: 10, maxPerHost: 15 }, new MemoryRoomLog(3600));
    const point = { kind: 'point' as const, points: [[0, 0, 0] as [number, number, number]] };
    await store.add('a', Array.from({ length: 10 }, () => point));
    const error = (await store.add('b', Array.from({ length: 6 }, () => point)).catch((e: unknown) => e)) as HostError;
    expect(error.statusCode).toBe(507);
    expect((await store.list('b')).annotations).toHaveLength(0);
    await store.remove('a', '1');
    await store.add('b', Array.from({ length: 6 }, () => point));
    expect((await store.list('b')).annotations).toHaveLength(6);
  });
});
