/**
 * @module room-board.test
 * The RoomBoard cases (room-board-cases.ts) run against every implementation:
 * MemoryRoomBoard on one host's hub, DiskRoomBoard in a data folder (kept for a host started
 * anew), and RedisRoomBoard on a real redis-server, whose
 * announcements are heard by a second host's subscription (its own connections, events and
 * hub), as every other host of a service hears them. Then what is the Redis board's own: a
 * stored view written by another version is read for what still checks.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DiskRoomBoard } from '../../core/rooms/disk-room-board.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';
import { EventHub } from '../../core/events/event-hub.ts';
import { createRedisConnections, type RedisConnections } from '../../core/redis/redis-connections.ts';
import { RedisEvents } from '../../core/redis/redis-events.ts';
import { KEYS } from '../../core/redis/redis-keys.ts';
import { MemoryRoomBoard } from '../../core/rooms/memory-room-board.ts';
import { RedisRoomBoard } from '../../core/rooms/redis-room-board.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RedisRoomLog } from '../../core/history/redis-room-log.ts';
import { room } from '../helpers/room.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { roomBoardConformance } from './room-board-cases.ts';

roomBoardConformance('memory', () => {
  const hub = new EventHub();
  const log = new MemoryRoomLog(3600);
  return { board: (ttl) => new MemoryRoomBoard(hub, ttl, log), elsewhere: hub, log };
});

let disk: DataStore;
const diskHub = new EventHub();
beforeAll(async () => {
  disk = await openTempDataStore();
});
roomBoardConformance('disk', () => {
  const log = new DiskRoomLog(disk, 3600);
  return { board: (ttl) => new DiskRoomBoard(disk, diskHub, ttl, log), elsewhere: diskHub, log };
});

describe('disk room board, a host started anew', () => {
  it('shows each room as it was: its view and the specimen it showed', async () => {
    const store = await openTempDataStore();
    const id = room('board-kept');
    const board = new DiskRoomBoard(store, new EventHub(), 3600, new DiskRoomLog(store, 3600));
    await board.setView(id, { colormap: 'bone', opacity: 0.5 });
    await board.setShown(id, { specimen_id: 'torus', type: 'mesh', since: 7 });
    const reopened = await reopenDataStore(store);
    const again = new DiskRoomBoard(reopened, new EventHub(), 3600, new DiskRoomLog(reopened, 3600));
    expect(await again.view(id)).toEqual({ colormap: 'bone', opacity: 0.5 });
    expect(await again.shown(id)).toEqual({ specimen_id: 'torus', type: 'mesh', since: 7 });
  });
});

let redis: RedisServer;
/** The host whose board is under test, and another host of the same service. */
let host: RedisConnections;
let other: RedisConnections;
const otherHub = new EventHub();
beforeAll(async () => {
  redis = await startRedis();
  host = createRedisConnections(redis.url);
  other = createRedisConnections(redis.url);
  expect(await host.ready(10_000)).toBe(true);
  // Subscribed once connected, so the other host's first subscription is its only one.
  if (other.subscriber.status !== 'ready') await once(other.subscriber, 'ready');
  // Resolves once subscribed: nothing published after it is lost to the other host.
  await new RedisEvents(other.subscriber, otherHub).start(10_000);
});
afterAll(async () => {
  await Promise.all([host?.close(), other?.close()]);
});

roomBoardConformance('redis', () => {
  const log = new RedisRoomLog(host.command, 3600);
  return { board: (ttl) => new RedisRoomBoard(host.command, ttl, log), elsewhere: otherHub, log };
});

describe('redis room board, a view stored by another version', () => {
  it('keeps the settings that check, leaves out the rest, and reads what is not JSON as no view', async () => {
    const board = new RedisRoomBoard(host.command, 3600, new RedisRoomLog(host.command, 3600));
    const [id, broken] = [room('board-stored'), room('board-broken')];
    await host.command.set(KEYS.roomView(id), JSON.stringify({ colormap: 'bone', opacity: 7, shading: 'flat' }));
    await host.command.set(KEYS.roomView(broken), '{not json');
    expect(await board.view(id)).toEqual({ colormap: 'bone' });
    expect(await board.view(broken)).toEqual({});
  });
});
