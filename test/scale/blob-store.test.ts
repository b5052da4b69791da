/**
 * @module blob-store.test
 * Result bytes apart from control, across real processes. With `--blob-store`
 * on a small Redis that evicts (`allkeys-lru`), results re-read on another host are all 200
 * and byte-equal to their first computation (an evicted one is computed again, never a 503),
 * and the control Redis holds no result bytes. A Redis out of memory under `noeviction`
 * refuses a result: the host that computed it answers its client with it, no room points at
 * it, another host computes again and answers in the service's words. A control Redis whose
 * `maxmemory-policy` is not `noeviction` is warned about at start and on reconnection. A
 * host's copies of results in memory leave once its entries' time-to-live has passed.
 */
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { getData, QUOTED, room, startService, type Service } from './service.ts';

// One service for the evicting store, the policy warning and the copies in memory: hosts A and
// B, and a host C whose entries live 2 s (its cache) and 1 s (its jobs).
let blobs: RedisServer;
let service: Service;
let a: RunningHost;
let b: RunningHost;
let c: RunningHost;
beforeAll(async () => {
  blobs = await startRedis({ args: ['--maxmemory', '10mb', '--maxmemory-policy', 'allkeys-lru'] });
  service = await startService({ blobStore: blobs });
  [a, b, c] = await Promise.all([service.host(), service.host(), service.host({ args: ['--cache-ttl', '2', '--job-ttl', '1'] })]);
  await service.worker();
});

describe('a blob store that evicts', () => {
  it('answers every re-read on another host with the same bytes, computing evicted results again', async () => {
    // 8 rooms of 2 MiB results, each different: 16 MiB through a 10 MB store that evicts.
    const rooms = Array.from({ length: 8 }, (_, i) => ({ room: room(), params: { megabytes: 2, seed: i + 1 } }));
    const first = new Map<string, Buffer>();
    for (const r of rooms) {
      const got = await getData(a, 'big', r.params, r.room);
      expect(got.status).toBe(200);
      first.set(r.room, got.body);
    }
    for (const r of rooms) {
      const again = await getData(b, 'big', r.params, r.room);
      expect(again.status).toBe(200);
      expect(again.body.equals(first.get(r.room)!)).toBe(true);
    }
    const blobRedis = new Redis(blobs.url);
    const control = new Redis(service.redis.url);
    try {
      expect(Number(/evicted_keys:(\d+)/.exec(await blobRedis.info('stats'))![1])).toBeGreaterThan(0);
      expect(await control.keys('vitrine:blob:*')).toEqual([]);
    } finally {
      blobRedis.disconnect();
      control.disconnect();
    }
  });
});

describe("a host's copies of results", () => {
  it('leave its memory once its entries have expired', async () => {
    const heldBytes = async () => ((await (await fetch(`${c.url}/api/processing/cache/stats`)).json()) as { total_bytes: number }).total_bytes;
    expect((await getData(c, 'big', { megabytes: 2, seed: 100 }, room())).status).toBe(200);
    expect(await heldBytes()).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    await waitFor(async () => ((await heldBytes()) === 0 ? true : undefined), 'the copy to leave');
  });
});

describe('a control Redis that may evict', () => {
  it('is warned about, naming its policy, at start and on reconnection', async () => {
    // The evicting blob store's Redis, given to a host as its control Redis.
    const host = await spawnHost([
      '--port',
      '0',
      '--no-viewer',
      '--log-level',
      'warn',
      '--compute',
      '0',
      '--redis',
      blobs.url,
      '--plugins',
      service.plugins,
      '--specimens',
      service.specimens,
    ]);
    await host.waitForLog(/maxmemory-policy 'allkeys-lru'/);
    const from = host.stderr().length;
    await blobs.restart();
    await host.waitForLog(/maxmemory-policy 'allkeys-lru'/, from);
  });
});

describe('a Redis out of memory under noeviction', () => {
  it('still answers the computing host, points no room at the refused bytes, and words its 503s', async () => {
    const full = await startService({ redisArgs: ['--maxmemory', '6mb', '--maxmemory-policy', 'noeviction'] });
    const [computing, other] = await Promise.all([full.host({ compute: 1 }), full.host()]);
    const roomId = room();
    const params = { megabytes: 8, seed: 7 };
    const computed = await getData(computing, 'big', params, roomId);
    expect(computed.status).toBe(200);
    expect(computed.body.byteLength).toBeGreaterThan(8 * 1024 * 1024);

    const stats = (await (await fetch(`${other.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).not.toContain(roomId);
    // The other host cannot read bytes only the computing one holds: it computes again, and
    // its answer never quotes Redis.
    const again = await getData(other, 'big', params, roomId);
    if (again.status !== 200) {
      expect(again.status).toBe(503);
      expect(JSON.parse(again.body.toString())).toMatchObject({ code: 'SPC_ERR_REDIS_UNAVAILABLE' });
      expect(again.body.toString()).not.toMatch(QUOTED);
    } else {
      expect(again.body.equals(computed.body)).toBe(true);
    }
    // Nothing of the refused writes is left holding memory: small results go through again.
    // Redis gives back a refused command's query buffer on its own cron (within a second or
    // two), not at once, so a small write just after may still be refused, as a worded 503.
    const small = await waitFor(async () => {
      const got = await getData(other, 'count', { dir: full.runs, tag: 'small', delay_ms: 0 }, room());
      if (got.status === 200) return got;
      expect(got.status).toBe(503);
      expect(got.body.toString()).not.toMatch(QUOTED);
      return undefined;
    }, 'a small result to go through after the refused writes');
    expect(small.status).toBe(200);
  });
});
