/**
 * The cold-read reader against a real redis-server: chunk values land in order in the fill
 * (a value far larger than one socket read included, and an empty one), the database of the
 * connection is selected, a Unix socket is followed, a user and password are sent, and a missing chunk, a value that
 * overflows the header, a refused login or a Redis that stops answering ends the read with an
 * error naming it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayloadFill } from '../../core/results/payload-fill.ts';
import { bulkReadInto } from '../../core/redis/redis-bulk-read.ts';
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
    await expect(bulkReadInto({ host: '127.0.0.1', port, db: 3 }, ['bulk:gone:0', 'bulk:gone:1'], gone, 10_000)).rejects.toThrow(
      'a chunk of the result is gone from Redis (2 of 2)',
    );
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

  it('logs in with the user and password of the client, and a refused login ends the read', async () => {
    const guarded = await startRedis();
    const admin = new Redis(guarded.url);
    try {
      await admin.set('bulk:guarded', Buffer.from('secret bytes'));
      await admin.call('ACL', 'SETUSER', 'reader', 'on', '>pw-1', '~bulk:*', '+get', '+select');
      const fill = new PayloadFill(12);
      await bulkReadInto({ host: '127.0.0.1', port: guarded.port, username: 'reader', password: 'pw-1' }, ['bulk:guarded'], fill, 10_000);
      expect(Buffer.from(fill.bytes).toString()).toBe('secret bytes');
      await expect(
        bulkReadInto({ host: '127.0.0.1', port: guarded.port, username: 'reader', password: 'wrong' }, ['bulk:guarded'], new PayloadFill(12), 10_000),
      ).rejects.toThrow(/Redis refused reading a result: WRONGPASS/);
    } finally {
      admin.disconnect();
      await guarded.stop();
    }
  });

  it('gives up after its time limit when Redis stops answering', async () => {
    const stalled = await startRedis();
    const admin = new Redis(stalled.url);
    try {
      await admin.set('bulk:stalled', Buffer.from('late'));
      stalled.freeze();
      await expect(bulkReadInto({ host: '127.0.0.1', port: stalled.port }, ['bulk:stalled'], new PayloadFill(4), 300)).rejects.toThrow(
        'reading a result from Redis got no answer within 300 ms',
      );
    } finally {
      admin.disconnect();
      await stalled.kill();
    }
  });

  it('reads over a Unix socket when the client is given one', async () => {
    const socketPath = join(mkdtempSync(join(tmpdir(), 'vitrine-bulk-')), 'redis.sock');
    const local = await startRedis({ args: ['--unixsocket', socketPath, '--unixsocketperm', '700'] });
    const admin = new Redis({ path: socketPath });
    try {
      await admin.set('bulk:unix', Buffer.from('by path'));
      const fill = new PayloadFill(7);
      await bulkReadInto({ path: socketPath }, ['bulk:unix'], fill, 10_000);
      expect(Buffer.from(fill.bytes).toString()).toBe('by path');
    } finally {
      admin.disconnect();
      await local.stop();
      rmSync(dirname(socketPath), { recursive: true, force: true });
    }
  });
});
