/**
 * @module scene-store.test
 * The SceneStore contract, written once and run against every home of a scene: one host's
 * MemorySceneStore, DiskSceneStore in a lone host's data folder (kept across a restart), and
 * RedisSceneStore on a real redis-server with two stores on connections of their own, as two
 * hosts of a service have them. Every change moves the version by exactly one and sends the
 * whole scene as its event, in the order of the versions, and is in the room's log (a change of
 * one layer as a `layer` entry naming it); a change that changes nothing moves and logs
 * nothing; a stale expected version is a 412 that leaves the scene and its log alone;
 * the limits hold (32 layers, unique ids, host-made ids unique); writers on both hosts at once
 * never lose a change nor reuse a version, and each change is logged by whoever made it, however
 * the home batches the writes; and on Redis a host started anew reads the scene.
 * Every room with layers is read back (what keeps the published specimens they name).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DiskSceneStore } from '../../core/scenes/disk-scene-store.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { isHostError } from '../../core/errors.ts';
import { ROOM_CHANNEL_PREFIX } from '../../core/events/channels.ts';
import type { EventHub } from '../../core/events/event-hub.ts';
import { CHANNELS } from '../../core/redis/redis-keys.ts';
import { defineScripts } from '../../core/redis/redis-scripts.ts';
import { MemorySceneStore } from '../../core/scenes/memory-scene-store.ts';
import { RedisSceneStore } from '../../core/scenes/redis-scene-store.ts';
import type { LayerDraft } from '../../core/scenes/scene-ops.ts';
import type { SceneStore } from '../../core/scenes/scene-store.ts';
import { SceneNamers } from '../../core/scenes/scene-names.ts';
import { room } from '../helpers/room.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import { asActor } from '../../core/history/request-actor.ts';
import type { RoomLogStore } from '../../core/history/room-log-store.ts';

/** What a store under test comes with. */
interface SceneHarness {
  /** Two stores as two hosts have them (the memory store: one and the same). */
  stores: [SceneStore, SceneStore];
  /** The versions of the `scene` events sent for `roomId`, in the order they arrived. */
  versions(roomId: string): number[];
  /** A store as a host started anew opens it; null where a scene does not outlive its host. */
  reopen(): SceneStore | null;
  /** The rooms' log the stores append to. */
  log: RoomLogStore;
}

const draft = (id: string | undefined, fn = 'ramp'): LayerDraft => ({ ...(id ? { id } : {}), source: { function: fn, params: {} }, kind: 'image' });

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (isHostError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

function sceneStoreCases(label: string, make: () => SceneHarness): void {
  describe(`${label} scene store`, () => {
    it('starts empty, moves the version by one per change and sends each scene in order', async () => {
      const h = make();
      const [store] = h.stores;
      const r = room('store');
      expect(await store.get(r)).toEqual({ version: 0, layers: [], active: null });
      const added = await store.add(r, draft('a'));
      expect(added.scene).toMatchObject({ version: 1, active: 'a' });
      expect(added.before.version).toBe(0);
      await store.add(r, draft('b'), 0);
      await store.patch(r, 'b', { display: { opacity: 0.5 } });
      const same = await store.patch(r, 'b', { display: { opacity: 0.5 } });
      expect(same.changed).toBe(false);
      await store.setActive(r, 'b');
      const removed = await store.remove(r, 'a');
      expect(removed.scene).toMatchObject({ version: 5, active: 'b' });
      expect(removed.scene.layers.map((l) => [l.id, l.opacity])).toEqual([['b', 0.5]]);
      expect(await store.get(r)).toEqual(removed.scene);
      await waitFor(() => (h.versions(r).length === 5 ? true : undefined), 'five scene events');
      expect(h.versions(r)).toEqual([1, 2, 3, 4, 5]);
    });

    it('logs each change with the scene after it, a layer’s as a `layer` entry naming it, and nothing that changed nothing', async () => {
      const h = make();
      const [store] = h.stores;
      const r = room('store');
      await asActor('ada', () => store.add(r, draft(undefined)));
      await store.patch(r, 'ramp', { display: { opacity: 0.5 } });
      await store.patch(r, 'ramp', { display: { opacity: 0.5 } });
      expect(await codeOf(store.patch(r, 'ramp', { display: { opacity: 0.1 } }, 1))).toBe('SPC_ERR_SCENE_VERSION');
      await store.setActive(r, null);
      await store.replace(r, [draft('x')], 'x');
      await store.remove(r, 'x');
      const entries = await entriesOf(h.log, r);
      expect(entries.map((e) => [e.seq, e.by, e.type, e.op, e.layer, (e.scene as RoomScene).version])).toEqual([
        [1, 'ada', 'layer', 'add', 'ramp', 1],
        [2, 'host', 'layer', 'change', 'ramp', 2],
        [3, 'host', 'scene', undefined, undefined, 3],
        [4, 'host', 'scene', undefined, undefined, 4],
        [5, 'host', 'layer', 'remove', 'x', 5],
      ]);
      expect(entries.at(-1)!.scene).toEqual(await store.get(r));
    });

    it('refuses a stale version with 412, leaving the scene as it was', async () => {
      const h = make();
      const [store] = h.stores;
      const r = room('store');
      await store.replace(r, [draft('a'), draft('b')]);
      const before = await store.get(r);
      expect(await codeOf(store.replace(r, [], null, 0))).toBe('SPC_ERR_SCENE_VERSION');
      expect(await codeOf(store.patch(r, 'a', { display: { visible: false } }, 7))).toBe('SPC_ERR_SCENE_VERSION');
      expect(await store.get(r)).toEqual(before);
      expect((await store.replace(r, [draft('c')], 'c', before.version)).scene).toMatchObject({ version: before.version + 1, active: 'c' });
    });

    it('holds its limits: 32 layers, unique ids, host-made ids unique, unknown layers refused', async () => {
      const [store] = make().stores;
      const r = room('store');
      await store.add(r, draft(undefined));
      await store.add(r, draft(undefined));
      const third = await store.add(r, draft(undefined));
      expect(third.scene.layers.map((l) => l.id)).toEqual(['ramp', 'ramp-2', 'ramp-3']);
      expect(await codeOf(store.add(r, draft('ramp-2')))).toBe('SPC_ERR_LAYER_ID_TAKEN');
      expect(await codeOf(store.patch(r, 'nope', { display: { opacity: 1 } }))).toBe('SPC_ERR_LAYER_NOT_FOUND');
      expect(await codeOf(store.remove(r, 'nope'))).toBe('SPC_ERR_LAYER_NOT_FOUND');
      expect(await codeOf(store.replace(r, [draft('x'), draft('x')]))).toBe('SPC_ERR_SCENE_INVALID');
      for (let i = 3; i < 32; i++) await store.add(r, draft(`l${i}`));
      expect((await store.get(r)).layers).toHaveLength(32);
      expect(await codeOf(store.add(r, draft('one-more')))).toBe('SPC_ERR_SCENE_FULL');
      expect(await codeOf(store.replace(r, Array.from({ length: 33 }, (_, i) => draft(`r${i}`))))).toBe('SPC_ERR_SCENE_FULL');
    });

    it('loses no change, reuses no version and logs each by its own writer when both hosts write at once', async () => {
      const h = make();
      const [a, b] = h.stores;
      const r = room('store');
      // Three people at once: a store that runs one's write in another's turn must not say it is theirs.
      const writer = (i: number) => `writer${i % 3}`;
      const adds = await Promise.all(Array.from({ length: 30 }, (_, i) => asActor(writer(i), () => (i % 2 ? a : b).add(r, draft(`layer${i}`)))));
      const patches = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).patch(r, `layer${i % 30}`, { display: { opacity: i / 100 } })));
      const versions = [...adds, ...patches].map((w) => w.scene.version);
      expect(new Set(versions).size).toBe(90);
      expect(Math.max(...versions)).toBe(90);
      const final = await a.get(r);
      expect(final.version).toBe(90);
      expect(final.layers.map((l) => l.id).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `layer${i}`).sort());
      // The last patch of each layer (in version order) is what the layer shows.
      for (let i = 0; i < 30; i++) {
        const last = patches.filter((w) => w.scene.layers.some((l) => l.id === `layer${i}`) && w.changed).sort((x, y) => y.scene.version - x.scene.version)[0]!;
        expect(final.layers.find((l) => l.id === `layer${i}`)!.opacity).toBe(last.scene.layers.find((l) => l.id === `layer${i}`)!.opacity);
      }
      await waitFor(() => (h.versions(r).length === 90 ? true : undefined), 'ninety scene events');
      expect(h.versions(r)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
      // The log has one entry per version, in the order of the versions: each was appended in the write of its change.
      const entries = await entriesOf(h.log, r);
      expect(entries.map((e) => (e.scene as RoomScene).version)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
      const addedBy = entries.filter((e) => e.op === 'add').map((e) => [e.layer, e.by]);
      expect(addedBy.sort()).toEqual(Array.from({ length: 30 }, (_, i) => [`layer${i}`, writer(i)]).sort());
    });

    it('keeps the scene for a host started anew (on a service)', async () => {
      const h = make();
      const r = room('store');
      const written = await h.stores[0].replace(r, [draft('a'), draft('b')], 'a');
      const reopened = h.reopen();
      if (reopened) expect(await reopened.get(r)).toEqual(written.scene);
      else expect(await h.stores[1].get(r)).toEqual(written.scene);
    });

    it('reads every room with layers (what names published specimens), on either host', async () => {
      const h = make();
      const [full, emptied] = [room('every'), room('every')];
      const named = { id: 'scan', source: { specimen: `${full}.scan`, params: {} }, kind: 'image' as const };
      const written = await h.stores[0].replace(full, [named, draft('b')], 'scan');
      await h.stores[0].add(emptied, draft('c'));
      await h.stores[0].replace(emptied, []);
      const seen: RoomScene[] = [];
      for await (const scene of h.stores[1].everyScene()) seen.push(scene);
      expect(seen).toContainEqual(written.scene);
      expect(seen.every((scene) => scene.layers.length > 0)).toBe(true);
      expect(await new SceneNamers(h.stores[1]).named(new Set([`${full}.scan`, `${emptied}.scan`]))).toEqual(new Set([`${full}.scan`]));
    });
  });
}

/** A hub that notes the version of each `scene` event by room. */
function versionsInto(events: Map<string, number[]>): Pick<EventHub, 'publish'> {
  return {
    publish(channel, event) {
      expect(event.event).toBe('scene');
      const roomId = channel.slice(ROOM_CHANNEL_PREFIX.length);
      events.set(roomId, [...(events.get(roomId) ?? []), (event.data as RoomScene).version]);
      return 1;
    },
  };
}

sceneStoreCases('memory', () => {
  const events = new Map<string, number[]>();
  const log = new MemoryRoomLog(3600);
  const store = new MemorySceneStore(versionsInto(events), log);
  return { stores: [store, store], versions: (roomId) => events.get(roomId) ?? [], reopen: () => null, log };
});

let disk: DataStore;
const diskEvents = new Map<string, number[]>();
const onDisk = (store: DataStore) => new DiskSceneStore(store, versionsInto(diskEvents), new DiskRoomLog(store, 3600));
beforeAll(async () => {
  disk = await openTempDataStore();
});
sceneStoreCases('disk', () => {
  const store = onDisk(disk);
  return { stores: [store, store], versions: (roomId) => diskEvents.get(roomId) ?? [], reopen: () => onDisk(disk), log: new DiskRoomLog(disk, 3600) };
});

describe('disk scene store, a host started anew', () => {
  it('reads every scene and goes on from its version', async () => {
    const store = await openTempDataStore();
    const r = room('store');
    await onDisk(store).replace(r, [draft('a'), draft('b')], 'a');
    const written = await onDisk(store).patch(r, 'b', { display: { opacity: 0.25 } });
    const again = onDisk(await reopenDataStore(store));
    expect(await again.get(r)).toEqual(written.scene);
    expect((await again.remove(r, 'a')).scene.version).toBe(written.scene.version + 1);
  });
});

let redis: RedisServer;
const connections: Redis[] = [];
const events = new Map<string, number[]>();

beforeAll(async () => {
  redis = await startRedis();
  const subscriber = new Redis(redis.url);
  connections.push(subscriber);
  await subscriber.subscribe(CHANNELS.room);
  subscriber.on('message', (_channel: string, message: string) => {
    const { room: roomId, event, data } = JSON.parse(message) as { room: string; event: string; data: RoomScene };
    if (event === 'scene') events.set(roomId, [...(events.get(roomId) ?? []), data.version]);
  });
});

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
});

/** A store on a connection of its own, as one host has it, over that host's handle on the service's logs. */
function onHost(): { store: RedisSceneStore; log: RedisRoomLog } {
  const connection = defineScripts(new Redis(redis.url));
  connections.push(connection);
  const log = new RedisRoomLog(connection, 3600);
  return { store: new RedisSceneStore(connection, log), log };
}

sceneStoreCases('redis', () => {
  const [one, other] = [onHost(), onHost()];
  return { stores: [one.store, other.store], versions: (roomId) => events.get(roomId) ?? [], reopen: () => onHost().store, log: one.log };
});
