/**
 * The cold-read reader against a real redis-server: chunk values land in order in the fill
 * (a value far larger than one socket read included, and an empty one), the database of the
 * connection is selected, and a missing chunk or a value that overflows the header ends the
 * read with an error naming it.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayloadFill } from '../../core/results/payload-fill.ts';
import { bulkReadInto } from '../../core/scale/redis-bulk-read.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';

let server: RedisServer;
let redis: Redis;
let port: number;

beforeAll(async () => {
  server = await startRedis();
  port = server.port;
  redis = new Redis(`${server.url}/3`);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

describe('bulkReadInto', () => {
  it('writes each value into the fill in key order, one large value spanning many socket reads', async () => {
    const values = [randomBytes(5 * 1024 * 1024 + 7), Buffer.alloc(0), randomBytes(3), randomBytes(200_000)];
    const keys = values.map((_, i) => `bulk:test:${i}`);
    for (const [i, value] of values.entries()) await redis.set(keys[i]!, value);
    const total = values.reduce((sum, v) => sum + v.length, 0);
    const fill = new PayloadFill(total, new SharedArrayBuffer(total));
    await bulkReadInto({ host: '127.0.0.1', port, db: 3 }, keys, fill, 10_000);
    expect(fill.complete).toBe(true);
    expect(Buffer.from(fill.bytes).equals(Buffer.concat(values))).toBe(true);
  });

  it('rejects naming the chunk when one is gone, and when a value is longer than the fill', async () => {
    await redis.set('bulk:gone:0', Buffer.from('abc'));
    const gone = new PayloadFill(6);
    await expect(bulkReadInto({ host: '127.0.0.1', port, db: 3 }, ['bulk:gone:0', 'bulk:gone:1'], gone, 10_000)).rejects.toThrow('a chunk of the result is gone from Redis (2 of 2)');
    const small = new PayloadFill(2);
    await expect(bulkReadInto({ host: '127.0.0.1', port, db: 3 }, ['bulk:gone:0'], small, 10_000)).rejects.toThrow('does not fit its header');
  });

  it('reads from the database it is given, not database 0', async () => {
    await redis.set('bulk:db', Buffer.from('in three'));
    const fill = new PayloadFill(8);
    await expect(bulkReadInto({ host: '127.0.0.1', port }, ['bulk:db'], fill, 10_000)).rejects.toThrow('gone from Redis');
    const fill3 = new PayloadFill(8);
    await bulkReadInto({ host: '127.0.0.1', port, db: 3 }, ['bulk:db'], fill3, 10_000);
    expect(Buffer.from(fill3.bytes).toString()).toBe('in three');
  });
});
