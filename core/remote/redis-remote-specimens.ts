/**
 * @module redis-remote-specimens
 * Remote specimens on a Redis service: one hash of records that every host lists, and a
 * version counter moved in the same transaction as each change, so hosts know when to read the
 * list again. The records hold references, never bytes: each host reads the image where it
 * lives, under its own remotes' rules.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';
import { isRemoteSpecimenRecord, type RemoteSpecimenRecord, type RemoteSpecimenStore } from './remote-specimen-store.ts';

export class RedisRemoteSpecimens implements RemoteSpecimenStore {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async version(): Promise<string> {
    return (await orUnavailable(this.#redis.get(KEYS.remoteSpecimensVersion))) ?? '0';
  }

  async list(): Promise<RemoteSpecimenRecord[]> {
    const all = await orUnavailable(this.#redis.hgetall(KEYS.remoteSpecimens));
    return Object.values(all).map((raw) => storedJson(raw)).filter(isRemoteSpecimenRecord);
  }

  async put(record: RemoteSpecimenRecord): Promise<boolean> {
    const write = this.#redis.multi().hset(KEYS.remoteSpecimens, record.id, JSON.stringify(record)).incr(KEYS.remoteSpecimensVersion);
    const answer = await orUnavailable(write.exec());
    // HSET answers how many fields it added: 0 when the id was there.
    return answer?.[0]?.[1] === 0;
  }

  async remove(id: string): Promise<boolean> {
    const answer = await orUnavailable(this.#redis.multi().hdel(KEYS.remoteSpecimens, id).incr(KEYS.remoteSpecimensVersion).exec());
    return answer?.[0]?.[1] === 1;
  }
}
