/**
 * @module roster.test
 * The Roster contract, written once and run on every home of a room's presence: one host's
 * MemoryRoster, and RedisRoster on a real redis-server with two rosters on connections of
 * their own, as two hosts of a service have them. Joins and leaves are listed by every host
 * and told once each; a peer joining again as another kind (a page entering VR) is listed once,
 * in its place, as that kind; on Redis a host that stops without a word (killed) has its peers taken
 * out and their leave told within 5 s by a host serving the room, and a peer taken out while
 * its host still holds it is listed again with its join told.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRoster } from '../../core/presence/memory-roster.ts';
import type { Peer, PresenceChange } from '../../core/presence/peer.ts';
import { RedisRoster } from '../../core/presence/redis-roster.ts';
import type { Roster } from '../../core/presence/roster.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { defineScripts } from '../../core/redis/redis-scripts.ts';
import { room } from '../helpers/room.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface Told {
  room: string;
  change: PresenceChange;
}
interface RosterHarness {
  rosters: [Roster, Roster];
  told: Told[];
}

let n = 0;
const peer = (name: string): Peer => ({ id: `p-${name}-${++n}`, name, kind: 'page', user: 'anonymous', since: Date.now() + n });
const toldOf = (told: Told[], r: string) => told.filter((t) => t.room === r).map((t) => `${t.change.op}:${t.change.peer.name}`);

function rosterCases(label: string, make: (watched?: () => string[]) => RosterHarness): void {
  describe(`${label} roster`, () => {
    it('lists who joined on every host and tells each join and leave once', async () => {
      const { rosters: [a, b], told } = make();
      const r = room('presence');
      await a.join(r, peer('ada'));
      const bo = peer('bo');
      await b.join(r, bo);
      expect((await a.list(r)).map((p) => p.name)).toEqual(['ada', 'bo']);
      expect(await b.list(r)).toEqual(await a.list(r));
      expect(await a.leave(r, bo.id)).toBe(true);
      expect(await b.leave(r, bo.id)).toBe(false);
      expect((await b.list(r)).map((p) => p.name)).toEqual(['ada']);
      expect(toldOf(told, r)).toEqual(['join:ada', 'join:bo', 'leave:bo']);
      expect(told.find((t) => t.change.op === 'leave')!.change.peer).toEqual(bo);
    });

    it('lists a peer joining again as another kind once, in its place, and its leave takes it out', async () => {
      const { rosters: [a, b], told } = make();
      const r = room('presence-kind');
      const page = peer('pat');
      await a.join(r, page);
      await b.join(r, peer('cy'));
      // A page entering VR: the same peer, listed again as a headset.
      await a.join(r, { ...page, kind: 'headset' });
      for (const roster of [a, b]) expect((await roster.list(r)).map((p) => `${p.name} ${p.kind}`)).toEqual(['pat headset', 'cy page']);
      expect(await a.leave(r, page.id)).toBe(true);
      expect((await b.list(r)).map((p) => p.name)).toEqual(['cy']);
      expect(toldOf(told, r)).toEqual(['join:pat', 'join:cy', 'join:pat', 'leave:pat']);
      expect(told.filter((t) => t.room === r).at(-1)!.change.peer.kind).toBe('headset');
    });
  });
}

rosterCases('memory', () => {
  const told: Told[] = [];
  const roster = new MemoryRoster(async (r, _event, data) => void told.push({ room: r, change: data as PresenceChange }));
  return { rosters: [roster, roster], told };
});

let redis: RedisServer;
const connections: Redis[] = [];
const open: Roster[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const roster of open) roster.close();
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
});

function redisRoster(told: Told[], watched: () => string[] = () => []): RedisRoster {
  const connection = new Redis(redis.url);
  connections.push(connection);
  const roster = new RedisRoster(defineScripts(connection), async (r, _event, data) => void told.push({ room: r, change: data as PresenceChange }), watched);
  open.push(roster);
  return roster;
}

rosterCases('redis', (watched) => {
  const told: Told[] = [];
  return { rosters: [redisRoster(told, watched), redisRoster(told, watched)], told };
});

describe('redis roster across hosts', () => {
  it('takes out a silent host’s peers within 5 s and tells their leave once', async () => {
    const told: Told[] = [];
    const r = room('presence');
    const dying = redisRoster(told);
    const serving = redisRoster(told, () => [r]);
    await dying.join(r, peer('ghost'));
    await serving.join(r, peer('stays'));
    dying.close();
    const stopped = Date.now();
    await waitFor(() => (toldOf(told, r).includes('leave:ghost') ? true : undefined), 'the silent peer to leave');
    expect(Date.now() - stopped).toBeLessThan(5000);
    expect((await serving.list(r)).map((p) => p.name)).toEqual(['stays']);
    expect(toldOf(told, r)).toEqual(['join:ghost', 'join:stays', 'leave:ghost']);
  });

  it('lists again, with its join told, a peer taken out while its host still holds it', async () => {
    const told: Told[] = [];
    const r = room('presence');
    const host = redisRoster(told);
    const alive = peer('alive');
    await host.join(r, alive);
    const probe = new Redis(redis.url);
    connections.push(probe);
    await probe.hdel(KEYS.roomPresence(r), alive.id);
    await waitFor(async () => ((await host.list(r)).length === 1 ? true : undefined), 'the peer to be listed again');
    expect(toldOf(told, r)).toEqual(['join:alive', 'join:alive']);
  });
});
