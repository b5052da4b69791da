/**
 * @module edit-store.test
 * The EditStore contract, written once and run against every home of a labels layer's edits:
 * one host's MemoryEditStore, DiskEditStore in a lone host's data folder (kept across a
 * restart), and RedisEditStore on a real redis-server with two stores on connections of their
 * own, as two hosts of a service have them. An edit is kept at the next version only while the
 * layer is at the version it was planned on, is its room log entry (`labels.edit`, the same seq,
 * by whoever made it), and sends one `labels` event, in version order; writers on both hosts at
 * once keep every edit at versions 1..N with no gap, each once in the log.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DiskEditStore } from '../../core/edits/disk-edit-store.ts';
import type { EditDraft, EditStore } from '../../core/edits/edit-store.ts';
import type { EditRecord } from '../../core/wire/edit-types.ts';
import { MemoryEditStore } from '../../core/edits/memory-edit-store.ts';
import { RedisEditStore } from '../../core/edits/redis-edit-store.ts';
import { ROOM_CHANNEL_PREFIX } from '../../core/events/channels.ts';
import type { EventHub } from '../../core/events/event-hub.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import { asActor } from '../../core/history/request-actor.ts';
import type { RoomLogStore } from '../../core/history/room-log-store.ts';
import { CHANNELS } from '../../core/redis/redis-keys.ts';
import { defineScripts } from '../../core/redis/redis-scripts.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { room } from '../helpers/room.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface EditHarness {
  /** Two stores as two hosts have them (memory: one and the same). */
  stores: [EditStore, EditStore];
  /** The `labels` events sent for `roomId`, in the order they arrived. */
  events(roomId: string): EditRecord[];
  /** A store as a host started anew opens it; null where edits do not outlive the host. */
  reopen(): Promise<EditStore | null>;
  log: RoomLogStore;
}

const paint = (label: number): EditDraft => ({
  edit: { op: 'paint', label, voxels: [[0, 0, label % 4]] },
  segments: { changed: [], new: [label] },
  voxels: 1,
  box: { from: [0, 0, label % 4], to: [1, 1, (label % 4) + 1] },
});

/** Keeps `draft` alone at `expected`: its record, or null. */
async function one(store: EditStore, roomId: string, layerId: string, expected: number, draft: EditDraft): Promise<EditRecord | null> {
  const records = await store.append(roomId, layerId, expected, [draft]);
  if (records) expect(records).toHaveLength(1);
  return records?.[0] ?? null;
}

/** Keeps `draft` on `store`, planning again (reading what it missed) while another writer keeps coming first. */
async function keep(store: EditStore, roomId: string, layerId: string, draft: EditDraft): Promise<EditRecord> {
  for (;;) {
    const at = (await store.after(roomId, layerId, 0)).length;
    const kept = await one(store, roomId, layerId, at, draft);
    if (kept) return kept;
  }
}

function editStoreCases(label: string, make: () => EditHarness): void {
  describe(`${label} edit store`, () => {
    it('keeps each edit at the next version as its log entry, and sends its event', async () => {
      const h = make();
      const [store] = h.stores;
      const r = room('edits');
      expect(await store.after(r, 'seg', 0)).toEqual([]);
      const first = await asActor('ada', () => one(store, r, 'seg', 0, paint(1)));
      const second = await one(store, r, 'seg', 1, paint(2));
      expect(first).toMatchObject({ layer: 'seg', version: 1, by: 'ada', edit: paint(1).edit, voxels: 1, segments: { new: [1] } });
      expect(second).toMatchObject({ version: 2, by: 'host' });
      expect(await store.after(r, 'seg', 0)).toEqual([first, second]);
      expect(await store.after(r, 'seg', 1)).toEqual([second]);
      const entries = await entriesOf(h.log, r);
      expect(entries.map((e) => [e.seq, e.type, e.layer, e.version, e.by])).toEqual([
        [first!.seq, 'labels.edit', 'seg', 1, 'ada'],
        [second!.seq, 'labels.edit', 'seg', 2, 'host'],
      ]);
      expect(entries[0]).toEqual(first);
      await waitFor(() => (h.events(r).length === 2 ? true : undefined), 'two labels events');
      expect(h.events(r)).toEqual([first, second]);
    });

    it('keeps nothing, logs nothing and sends nothing when the layer moved on', async () => {
      const h = make();
      const [store] = h.stores;
      const r = room('edits');
      await one(store, r, 'seg', 0, paint(1));
      expect(await one(store, r, 'seg', 0, paint(2))).toBeNull();
      expect(await one(store, r, 'seg', 5, paint(3))).toBeNull();
      expect((await store.after(r, 'seg', 0)).map((e) => e.version)).toEqual([1]);
      expect(await entriesOf(h.log, r)).toHaveLength(1);
      // Another layer of the room has its own versions.
      expect(await one(store, r, 'other', 0, paint(4))).toMatchObject({ layer: 'other', version: 1 });
      await waitFor(() => (h.events(r).length === 2 ? true : undefined), 'two labels events');
      expect(h.events(r).map((e) => [e.layer, e.version])).toEqual([['seg', 1], ['other', 1]]);
    });

    it('keeps several edits in one append, each by its own maker, all or none', async () => {
      const h = make();
      const [a, b] = h.stores;
      const r = room('edits');
      await one(a, r, 'seg', 0, paint(1));
      const batch = [
        { ...paint(2), by: 'ada' },
        { ...paint(3), by: 'bo' },
        paint(4),
      ];
      // The layer moved on (b's edit 1 is there): none of the three is kept.
      expect(await b.append(r, 'seg', 0, batch)).toBeNull();
      const kept = await asActor('cy', () => b.append(r, 'seg', 1, batch));
      expect(kept!.map((e) => [e.version, e.by, (e.edit as { label: number }).label])).toEqual([
        [2, 'ada', 2],
        [3, 'bo', 3],
        [4, 'cy', 4],
      ]);
      expect(kept!.map((e) => e.seq)).toEqual([kept![0]!.seq, kept![0]!.seq + 1, kept![0]!.seq + 2]);
      expect(await a.after(r, 'seg', 1)).toEqual(kept);
      expect((await entriesOf(h.log, r)).slice(1)).toEqual(kept);
      await waitFor(() => (h.events(r).length === 4 ? true : undefined), 'four labels events');
      expect(h.events(r).slice(1)).toEqual(kept);
      // Another host's edit came first: a batch planned on version 4 keeps nothing, even its later edits.
      await one(a, r, 'seg', 4, paint(5));
      expect(await b.append(r, 'seg', 4, [paint(6), paint(7)])).toBeNull();
      expect((await b.after(r, 'seg', 0)).map((e) => e.version)).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps every edit of writers on both hosts once, versions 1..N in one order', async () => {
      const h = make();
      const [a, b] = h.stores;
      const r = room('edits');
      const kept = await Promise.all(Array.from({ length: 24 }, (_, i) => keep(i % 2 ? a : b, r, 'seg', paint(i + 1))));
      expect(kept.map((e) => e.version).sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      const stored = await b.after(r, 'seg', 0);
      expect(stored.map((e) => e.version)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      expect(stored.map((e) => (e.edit as { label: number }).label).sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      // The log's order is the versions' order.
      const entries = await entriesOf(h.log, r);
      expect(entries.map((e) => e.version)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      await waitFor(() => (h.events(r).length === 24 ? true : undefined), '24 labels events');
      expect(h.events(r).map((e) => e.version)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    });

    it('keeps the edits for a host started anew', async () => {
      const h = make();
      const r = room('edits');
      const first = await one(h.stores[0], r, 'seg', 0, paint(1));
      const reopened = (await h.reopen()) ?? h.stores[1];
      expect(await reopened.after(r, 'seg', 0)).toEqual([first]);
      expect(await one(reopened, r, 'seg', 1, paint(2))).toMatchObject({ version: 2, seq: first!.seq + 1 });
    });
  });
}

/** A hub that keeps each `labels` event by room. */
function eventsInto(events: Map<string, EditRecord[]>): Pick<EventHub, 'publish'> {
  return {
    publish(channel, event) {
      expect(event.event).toBe('labels');
      const roomId = channel.slice(ROOM_CHANNEL_PREFIX.length);
      events.set(roomId, [...(events.get(roomId) ?? []), event.data as EditRecord]);
      return 1;
    },
  };
}

editStoreCases('memory', () => {
  const events = new Map<string, EditRecord[]>();
  const log = new MemoryRoomLog(3600);
  const store = new MemoryEditStore(eventsInto(events), log);
  return { stores: [store, store], events: (r) => events.get(r) ?? [], reopen: async () => null, log };
});

let disk: DataStore;
const diskEvents = new Map<string, EditRecord[]>();
const onDisk = (store: DataStore) => new DiskEditStore(store, eventsInto(diskEvents), new DiskRoomLog(store, 3600));
beforeAll(async () => {
  disk = await openTempDataStore();
});
editStoreCases('disk', () => {
  const store = onDisk(disk);
  return {
    stores: [store, store],
    events: (r) => diskEvents.get(r) ?? [],
    reopen: async () => {
      disk = await reopenDataStore(disk);
      return onDisk(disk);
    },
    get log() {
      return new DiskRoomLog(disk, 3600);
    },
  };
});

let redis: RedisServer;
const connections: Redis[] = [];
const redisEvents = new Map<string, EditRecord[]>();

beforeAll(async () => {
  redis = await startRedis();
  const subscriber = new Redis(redis.url);
  connections.push(subscriber);
  await subscriber.subscribe(CHANNELS.room);
  subscriber.on('message', (_channel: string, message: string) => {
    const { room: roomId, event, data } = JSON.parse(message) as { room: string; event: string; data: EditRecord };
    if (event === 'labels') redisEvents.set(roomId, [...(redisEvents.get(roomId) ?? []), data]);
  });
});

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
});

function onHost(): { store: RedisEditStore; log: RedisRoomLog } {
  const connection = defineScripts(new Redis(redis.url));
  connections.push(connection);
  const log = new RedisRoomLog(connection, 3600);
  return { store: new RedisEditStore(connection, log), log };
}

editStoreCases('redis', () => {
  const [a, b] = [onHost(), onHost()];
  return { stores: [a.store, b.store], events: (r) => redisEvents.get(r) ?? [], reopen: async () => onHost().store, log: a.log };
});
