/**
 * @module redis-access-store
 * Rooms' access on a Redis service: a key per closed room, changed by a script that checks the
 * owner is still the one the change was decided on, so every host of the service agrees on one
 * owner and refuses a reader the moment the room is closed.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { AccessStore } from './access-store.ts';
import type { RoomAccess } from './room-access.ts';

// KEYS: roomAccess. ARGV: expected owner ('' for an open room), the new access. Answers the access after.
const SET = `local cur = redis.call('GET', KEYS[1]) local owner = ''
if cur then owner = cjson.decode(cur).owner end
if owner ~= ARGV[1] then return {0, cur or ''} end
redis.call('SET', KEYS[1], ARGV[2]) return {1, ARGV[2]}`;

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

  async close(): Promise<void> {}
}
