/**
 * @module client-ids.test
 * The ClientIds contract, written once and run on every home of the agent socket's client ids:
 * one host's memory, a lone host's data folder, and a Redis service on a real redis-server with
 * two hosts on connections of their own. A room's ids start at 0 and grow by one, rooms count
 * apart, and ids asked for at once (from either host of a service) never meet. Where the home
 * outlives its host (the data folder, Redis) a host started again goes on where the last left
 * off, so no id is ever given twice, not even to a client that comes back after a restart.
 */
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientIds } from '../../core/agent/client-ids.ts';
import { DiskClientIds } from '../../core/agent/disk-client-ids.ts';
import { MemoryClientIds } from '../../core/agent/memory-client-ids.ts';
import { RedisClientIds } from '../../core/agent/redis-client-ids.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { room } from '../helpers/room.ts';

/** A home's ids as two hosts have them (a lone host's: one and the same), and `restart`: a host started again on the same home. */
interface IdsHarness {
  hosts: [ClientIds, ClientIds];
  restart: (() => Promise<ClientIds>) | null;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** `outlivesHost`: the home keeps its counts when its host stops (it has `restart`). */
function clientIdsCases(label: string, make: () => Promise<IdsHarness>, outlivesHost: boolean): void {
  describe(`${label} client ids`, () => {
    it('counts each room from 0 by one, rooms apart', async () => {
      const [ids] = (await make()).hosts;
      const [a, b] = [room('ids'), room('ids')];
      expect(await Promise.all([ids.next(a), ids.next(a), ids.next(b), ids.next(a)])).toEqual([0, 1, 0, 2]);
      expect(await ids.next(b)).toBe(1);
    });

    it('never gives one id twice when many are asked for at once, from both hosts', async () => {
      const [a, b] = (await make()).hosts;
      const r = room('ids');
      const given = await Promise.all(range(60).map((i) => (i % 2 ? a : b).next(r)));
      expect([...given].sort((x, y) => x - y)).toEqual(range(60));
    });

    if (outlivesHost)
      it('goes on where it left off for a host started again on the same home', async () => {
        const harness = await make();
        const r = room('ids');
        for (const _ of range(3)) await harness.hosts[0].next(r);
        const again = await harness.restart!();
        expect(await again.next(r)).toBe(3);
        expect(await again.next(room('ids'))).toBe(0);
      });
  });
}

clientIdsCases('memory', async () => {
  const ids = new MemoryClientIds();
  return { hosts: [ids, ids], restart: null };
}, false);

clientIdsCases('disk', async () => {
  // A data folder is one host's (it is locked): both "hosts" are that host.
  const store = await openTempDataStore();
  const ids = new DiskClientIds(store);
  return { hosts: [ids, ids], restart: async () => new DiskClientIds(await reopenDataStore(store)) };
}, true);

const redis = fileRedis();
const connections: Redis[] = [];
afterAll(() => connections.forEach((connection) => connection.disconnect()));

/** A host of the service: ids on a connection of its own. */
function redisIds(): ClientIds {
  const connection = redis.client.duplicate();
  connections.push(connection);
  return new RedisClientIds(connection);
}

clientIdsCases('redis', async () => ({ hosts: [redisIds(), redisIds()], restart: async () => redisIds() }), true);
