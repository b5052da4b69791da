/**
 * @module redis-user-store
 * Users on a Redis service: each record twice, by name and by its token's digest, written and
 * removed together by one script, so every host of the service knows a new user at once and
 * refuses a removed one's token at its next request; a removal is also published to every host
 * (people/room-readers.ts ends what the user kept open). Kept until removed.
 */
import type { Redis } from 'ioredis';
import { CHANNELS, KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { byName, type UserRecord, type UserStore } from './user-store.ts';

// KEYS: user, userToken. ARGV: the record. Nothing written when the name is taken.
const ADD = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1]) redis.call('SET', KEYS[2], ARGV[1]) return 1`;
// KEYS: user. ARGV: the token key prefix, the channel every host hears removals on. Both keys go
// in one step, and the hosts are told in the same step.
const REMOVE = `local json = redis.call('GET', KEYS[1]) if not json then return 0 end
local record = cjson.decode(json) redis.call('DEL', KEYS[1], ARGV[1] .. record.tokenHash)
redis.call('PUBLISH', ARGV[2], record.name) return 1`;

function parse(json: string | null): UserRecord | null {
  if (!json) return null;
  const record = JSON.parse(json) as UserRecord;
  return { name: record.name, admin: record.admin === true, tokenHash: record.tokenHash, created: record.created };
}

export class RedisUserStore implements UserStore {
  #redis: Redis;
  #owned: boolean;

  /** `owned`: the store closes the connection when it is closed (the CLI's own). */
  constructor(redis: Redis, owned = false) {
    this.#redis = redis;
    this.#owned = owned;
  }

  /** The connection it speaks on (a command's other stores share it; closed with this store when owned). */
  get connection(): Redis {
    return this.#redis;
  }

  async add(record: UserRecord): Promise<boolean> {
    const keys = [KEYS.user(record.name), KEYS.userToken(record.tokenHash)];
    return (await orUnavailable(this.#redis.eval(ADD, 2, ...keys, JSON.stringify(record)))) === 1;
  }

  async byTokenHash(tokenHash: string): Promise<UserRecord | null> {
    return parse(await orUnavailable(this.#redis.get(KEYS.userToken(tokenHash))));
  }

  async list(): Promise<UserRecord[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await orUnavailable(this.#redis.scan(cursor, 'MATCH', KEYS.user('*'), 'COUNT', 500));
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    if (keys.length === 0) return [];
    const values = await orUnavailable(this.#redis.mget(...keys));
    return byName(values.map(parse).filter((record): record is UserRecord => record !== null));
  }

  async remove(name: string): Promise<boolean> {
    return (await orUnavailable(this.#redis.eval(REMOVE, 1, KEYS.user(name), KEYS.userToken(''), CHANNELS.users))) === 1;
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
