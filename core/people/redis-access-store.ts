/**
 * @module redis-access-store
 * Rooms' access on a Redis service: a key per closed room, changed by a script that checks the
 * owner is still the one the change was decided on, so every host of the service agrees on one
 * owner and refuses a reader the moment the room is closed. A user removed is forgotten in every
 * room's access, each room rewritten only as it was read.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { AccessStore } from './access-store.ts';
import { withoutUser, type RoomAccess } from './room-access.ts';
import { ADMIN_NAME } from './users.ts';

// KEYS: roomAccess. ARGV: expected owner ('' for an open room), the new access. Answers the access after.
const SET = `local cur = redis.call('GET', KEYS[1]) local owner = ''
if cur then owner = cjson.decode(cur).owner end
if owner ~= ARGV[1] then return {0, cur or ''} end
redis.call('SET', KEYS[1], ARGV[2]) return {1, ARGV[2]}`;

// KEYS: roomAccess. ARGV: the access as read, the access to store. Nothing written when it changed meanwhile.
const REPLACE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end redis.call('SET', KEYS[1], ARGV[2]) return 1`;

/** Writes a room's access again when another host changed it while it was being rewritten. */
const ATTEMPTS = 5;

function parse(json: string | null | undefined): RoomAccess | null {
  return json ? (JSON.parse(json) as RoomAccess) : null;
}

export class RedisAccessStore implements AccessStore {
  #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async get(roomId: string): Promise<RoomAccess | null> {
    return parse(await orUnavailable(this.#redis.get(KEYS.roomAccess(roomId))));
  }

  /** Another host may have changed it a moment ago: only Redis can say. */
  known(): undefined {
    return undefined;
  }

  async set(roomId: string, access: RoomAccess, expectedOwner: string | null) {
    const [changed, json] = (await orUnavailable(
      this.#redis.eval(SET, 1, KEYS.roomAccess(roomId), expectedOwner ?? '', JSON.stringify(access)),
    )) as [number, string];
    return { access: parse(json), changed: changed === 1 };
  }

  async forget(name: string) {
    const changed: { roomId: string; access: RoomAccess }[] = [];
    const prefix = KEYS.roomAccess('');
    let cursor = '0';
    do {
      const [next, keys] = await orUnavailable(this.#redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500));
      for (const key of keys) {
        const access = await this.#forgetIn(key, name);
        if (access) changed.push({ roomId: key.slice(prefix.length), access });
      }
      cursor = next;
    } while (cursor !== '0');
    return changed;
  }

  /** Rewrites one room's access without `name`, as it is when written; the access written, or null. */
  async #forgetIn(key: string, name: string): Promise<RoomAccess | null> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const json = await orUnavailable(this.#redis.get(key));
      const without = json ? withoutUser(JSON.parse(json) as RoomAccess, name, ADMIN_NAME) : null;
      if (!without) return null;
      if ((await orUnavailable(this.#redis.eval(REPLACE, 1, key, json!, JSON.stringify(without)))) === 1) return without;
    }
    throw new Error(`the access of '${key}' kept changing while user '${name}' was being forgotten in it`);
  }

  async close(): Promise<void> {}
}
