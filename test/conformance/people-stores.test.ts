/**
 * @module people-stores.test
 * The AccessStore and TicketStore contracts, written once and run against every home: one host's
 * memory, a lone host's data folder, and Redis with two stores on connections of their own (two
 * hosts of a service). A room is open until an access is set; a change holds only while the
 * owner it was decided on is still the owner, so of two closing an open room at once exactly
 * one wins; a user removed is forgotten in every room's access; each change is in the room's
 * log, by whoever made it, and a refused one is not; a ticket stands for its user once, and on Redis once across both hosts.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessStore } from '../../core/people/access-store.ts';
import { DiskAccessStore } from '../../core/people/disk-access-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { openTempDataStore } from '../helpers/temp-data-store.ts';
import { MemoryAccessStore } from '../../core/people/memory-access-store.ts';
import { MemoryTicketStore } from '../../core/people/memory-ticket-store.ts';
import { RedisAccessStore } from '../../core/people/redis-access-store.ts';
import { RedisTicketStore } from '../../core/people/redis-ticket-store.ts';
import type { RoomAccess } from '../../core/people/room-access.ts';
import type { TicketStore } from '../../core/people/ticket-store.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import { asActor } from '../../core/history/request-actor.ts';
import type { RoomLogStore } from '../../core/history/room-log-store.ts';
import { defineScripts, type ScriptedRedis } from '../../core/redis/redis-scripts.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';

interface Homes {
  access: [AccessStore, AccessStore];
  tickets: [TicketStore, TicketStore];
  /** The rooms' log the access stores append to. */
  log: RoomLogStore;
}

const closedBy = (owner: string, more: Partial<RoomAccess> = {}): RoomAccess => ({ owner, editors: [], viewers: [], public: 'none', ...more });

function peopleStoreCases(label: string, make: () => Homes): void {
  describe(`${label} access and ticket stores`, () => {
    it('keeps a room open until its access is set, then changes it only for its owner of the moment', async () => {
      const { access: [one, other] } = make();
      const r = `room-${randomUUID()}`;
      expect(await one.get(r)).toBeNull();
      expect(await one.set(r, closedBy('ada'), null)).toEqual({ access: closedBy('ada'), changed: true });
      expect(await other.get(r)).toEqual(closedBy('ada'));
      expect(await other.set(r, closedBy('bob'), null)).toEqual({ access: closedBy('ada'), changed: false });
      const handed = closedBy('bob', { editors: ['cy'], public: 'read' });
      expect(await other.set(r, handed, 'ada')).toEqual({ access: handed, changed: true });
      expect(await one.get(r)).toEqual(handed);
    });

    it('makes exactly one owner of two closing an open room at once', async () => {
      const { access: [one, other] } = make();
      const r = `race-${randomUUID()}`;
      const done = await Promise.all([one.set(r, closedBy('ada'), null), other.set(r, closedBy('bob'), null)]);
      expect(done.filter((d) => d.changed)).toHaveLength(1);
      expect(done[0]!.access).toEqual(done[1]!.access);
    });

    it('says at once only what get says: open, closed, then changed, on either store', async () => {
      const { access: [one, other] } = make();
      const r = `known-${randomUUID()}`;
      // A store that cannot say at once (a service's) answers undefined; one that can agrees with get.
      const same = async (store: AccessStore) => {
        const now = store.known(r);
        if (now !== undefined) expect(now).toEqual(await store.get(r));
      };
      await same(one);
      await same(other);
      await one.set(r, closedBy('ada'), null);
      await same(one);
      await same(other);
      await other.set(r, closedBy('bob', { viewers: ['cy'] }), 'ada');
      await same(one);
      await same(other);
      expect(await one.set(r, closedBy('dan'), 'ada')).toEqual({ access: closedBy('bob', { viewers: ['cy'] }), changed: false });
      await same(one);
      expect(one.known(r) ?? (await one.get(r))).toEqual(closedBy('bob', { viewers: ['cy'] }));
    });

    it("forgets a removed user in every room's access: out of editors and viewers, its rooms the admins'", async () => {
      const made = make();
      const { access: [one, other] } = made;
      const gone = `gone-${randomUUID()}`;
      const rooms = ['edited', 'owned', 'viewed', 'untouched'].map((what) => `${what}-${randomUUID()}`);
      const [edited, owned, viewed, untouched] = rooms as [string, string, string, string];
      await one.set(edited, closedBy('ada', { editors: [gone, 'bob'], viewers: ['cy'] }), null);
      await one.set(owned, closedBy(gone, { viewers: ['cy'], public: 'read' }), null);
      await one.set(viewed, closedBy('ada', { viewers: ['cy', gone] }), null);
      await one.set(untouched, closedBy('ada', { editors: ['bob'] }), null);
      const changed = await other.forget(gone);
      const mine = changed.filter(({ roomId }) => rooms.includes(roomId));
      expect(mine.map(({ roomId }) => roomId).sort()).toEqual([edited, owned, viewed].sort());
      for (const store of [one, other]) {
        expect(await store.get(edited)).toEqual(closedBy('ada', { editors: ['bob'], viewers: ['cy'] }));
        expect(await store.get(owned)).toEqual(closedBy('admin', { viewers: ['cy'], public: 'read' }));
        expect(await store.get(viewed)).toEqual(closedBy('ada', { viewers: ['cy'] }));
        expect(await store.get(untouched)).toEqual(closedBy('ada', { editors: ['bob'] }));
        expect(store.known(edited) ?? (await store.get(edited))).toEqual(closedBy('ada', { editors: ['bob'], viewers: ['cy'] }));
      }
      expect(await one.forget(gone)).toEqual([]);
      // Each room changed by the removal has it in its log, with the room's access after.
      const { log } = made;
      for (const roomId of [edited, owned, viewed]) {
        expect((await entriesOf(log, roomId)).at(-1)).toMatchObject({ type: 'access', access: await one.get(roomId) });
      }
      expect(await entriesOf(log, untouched)).toHaveLength(1);
    });

    it('logs each change of a room’s access with it, by whoever made it, and nothing of a refused one', async () => {
      const { access: [one, other], log } = make();
      const r = `logged-${randomUUID()}`;
      await asActor('ada', () => one.set(r, closedBy('ada'), null));
      expect((await other.set(r, closedBy('bob'), null)).changed).toBe(false);
      const handed = closedBy('bob', { viewers: ['cy'] });
      await other.set(r, handed, 'ada');
      const entries = await entriesOf(log, r);
      expect(entries.map((e) => [e.seq, e.type, e.by, e.access])).toEqual([
        [1, 'access', 'ada', closedBy('ada')],
        [2, 'access', 'host', handed],
      ]);
    });

    it('spends a ticket once, wherever it is taken', async () => {
      const { tickets: [one, other] } = make();
      const ticket = await one.issue({ name: 'ada', admin: false });
      expect(ticket).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(await other.take(ticket)).toEqual({ name: 'ada', admin: false });
      expect(await one.take(ticket)).toBeNull();
      expect(await other.take('not-a-ticket')).toBeNull();
    });
  });
}

peopleStoreCases('memory', () => {
  const log = new MemoryRoomLog(3600);
  const access = new MemoryAccessStore(log);
  const tickets = new MemoryTicketStore();
  return { access: [access, access], tickets: [tickets, tickets], log };
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

function connection(): ScriptedRedis {
  const made = new Redis(redis.url);
  connections.push(made);
  return defineScripts(made);
}

peopleStoreCases('redis', () => {
  const [a, b] = [connection(), connection()];
  const [logA, logB] = [new RedisRoomLog(a, 3600), new RedisRoomLog(b, 3600)];
  return {
    access: [new RedisAccessStore(a, logA), new RedisAccessStore(b, logB)],
    tickets: [new RedisTicketStore(connection()), new RedisTicketStore(connection())],
    log: logA,
  };
});

// A lone host's data folder keeps access (a room closed before a restart stays closed); its
// one-time tickets stay in memory.
peopleStoreCases('disk', () => {
  const log = new DiskRoomLog(data, 3600);
  const access = new DiskAccessStore(data, log);
  const tickets = new MemoryTicketStore();
  return { access: [access, access], tickets: [tickets, tickets], log };
});
