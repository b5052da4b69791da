/**
 * @module file-redis
 * A redis-server and one ioredis client of it shared by a test file's cases: started before
 * them, the client disconnected after them (the server stops with the file, redis-server.ts).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startRedis, type RedisServer, type StartRedisOptions } from './redis-server.ts';

export interface FileRedis {
  readonly server: RedisServer;
  readonly client: Redis;
}

/** Called at the top of a file; `server` and `client` are set once its beforeAll has run. */
export function fileRedis(options: StartRedisOptions = {}): FileRedis {
  const redis = { server: undefined as unknown as RedisServer, client: undefined as unknown as Redis };
  beforeAll(async () => {
    redis.server = await startRedis(options);
    redis.client = new Redis(redis.server.url);
  });
  afterAll(() => redis.client?.disconnect());
  return redis;
}
