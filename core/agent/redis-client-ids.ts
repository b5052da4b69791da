/**
 * @module redis-client-ids
 * Client ids on a Redis service (client-ids.ts): one counter per room shared by every host, so
 * a room's ids grow across the service, the smallest is its oldest socket wherever it is, and no
 * id is ever given twice, not even across restarts.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { ClientIds } from './client-ids.ts';

export class RedisClientIds implements ClientIds {
  #redis: Pick<Redis, 'incr'>;

  constructor(redis: Pick<Redis, 'incr'>) {
    this.#redis = redis;
  }

  async next(roomId: string): Promise<number> {
    return (await orUnavailable(this.#redis.incr(KEYS.agentIds(roomId)))) - 1;
  }
}
