/**
 * @module open-user-store
 * The one chooser of where users live: a Redis service's Redis when there is one (every host of
 * the service, and `vitrine users --redis`, share it), else a data dir's store, else memory
 * (a host made in code, or `--data-dir none`). `vitrine users` and the host choose alike, so
 * the host reads the users the command wrote.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { DataStore } from '../durable/data-store.ts';
import { LmdbUserStore, usersOfDataDir, usersOfDataStore } from './lmdb-user-store.ts';
import { MemoryUserStore } from './memory-user-store.ts';
import { RedisUserStore } from './redis-user-store.ts';
import type { UserStore } from './user-store.ts';
import type { AccessStore } from './access-store.ts';
import { KEEPING_DEFAULTS } from '../durable/keeping-options.ts';
import { DiskRoomLog } from '../history/disk-room-log.ts';
import { RedisRoomLog } from '../history/redis-room-log.ts';
import { defineScripts } from '../redis/redis-scripts.ts';
import { DiskAccessStore } from './disk-access-store.ts';
import { RedisAccessStore } from './redis-access-store.ts';

export interface UserHome {
  /** A Redis service's URL; wins over `dataDir`. */
  redis?: string | null;
  /** A data dir (its store is shared with `vitrine users`); null: memory. */
  dataDir?: string | null;
  /** The host's own open data store, when it keeps one (wins over `dataDir`). */
  data?: DataStore | null;
  /** The service's own connection, when the host has one (else one is opened and owned). */
  connection?: Redis;
}

/**
 * The users and rooms' access of a home, for a command (`vitrine users remove` forgets a user in
 * every room's access): a Redis service's or a data folder's, on one connection or one file.
 */
export function openPeopleHome(home: { redis: string | null; dataDir: string | null }): { users: UserStore; access: AccessStore } {
  // Each room's access changed is logged in its room's log, as a host logs it (the host's own
  // --log-ttl trims the entries as it next writes the room).
  const ttl = KEEPING_DEFAULTS.logTtlSeconds;
  if (home.redis) {
    const users = openUserStore({ redis: home.redis }) as RedisUserStore;
    const redis = defineScripts(users.connection);
    return { users, access: new RedisAccessStore(redis, new RedisRoomLog(redis, ttl)) };
  }
  const opened = usersOfDataDir(home.dataDir!);
  return { users: new LmdbUserStore(opened), access: new DiskAccessStore(opened.folder, new DiskRoomLog(opened.folder, ttl)) };
}

export function openUserStore(home: UserHome): UserStore {
  if (home.connection) return new RedisUserStore(home.connection);
  if (home.redis) {
    // A command's own connection: a refused one fails the command (one retry) with its message, not ioredis's log line.
    // Required here, not imported at the top: a host without Redis never loads the client.
    const { Redis: Client } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    const connection = new Client(home.redis, { maxRetriesPerRequest: 1, lazyConnect: false });
    connection.on('error', () => {});
    return new RedisUserStore(connection, true);
  }
  if (home.data) return new LmdbUserStore(usersOfDataStore(home.data));
  if (home.dataDir) return new LmdbUserStore(usersOfDataDir(home.dataDir));
  return new MemoryUserStore();
}
