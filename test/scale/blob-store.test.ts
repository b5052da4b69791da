/**
 * @module blob-store.test
 * Result bytes apart from control (contract §13), across real processes. With `--blob-store`
 * on a small Redis that evicts (`allkeys-lru`), results re-read on another host are all 200
 * and byte-equal to their first computation (an evicted one is computed again, never a 503),
 * and the control Redis holds no result bytes. A Redis out of memory under `noeviction`
 * refuses a result: the host that computed it answers its client with it, no room points at
 * it, another host computes again and answers in the service's words. A control Redis whose
 * `maxmemory-policy` is not `noeviction` is warned about at start and on reconnection. A
 * host's copies of results in memory leave once its entries' time-to-live has passed.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startRedis } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { getData, QUOTED, room, startService } from './service.ts';

describe('a blob store that evicts', () => {
  it('answers every re-read on another host with the same bytes, computing evicted results again', async () => {
    const blobs = await startRedis({ args: ['--maxmemory', '10mb', '--maxmemory-policy', 'allkeys-lru'] });
    const service = await startService({ blobStore: blobs });
    const [a, b] = await Promise.all([service.host(), service.host()]);
    await service.worker();
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

describe('a Redis out of memory under noeviction', () => {
  it('still answers the computing host, points no room at the refused bytes, and words its 503s', async () => {
    const service = await startService({ redisArgs: ['--maxmemory', '6mb', '--maxmemory-policy', 'noeviction'] });
    const [a, b] = await Promise.all([service.host({ compute: 1 }), service.host()]);
    const roomId = room();
    const params = { megabytes: 8, seed: 7 };
    const computed = await getData(a, 'big', params, roomId);
    expect(computed.status).toBe(200);
    expect(computed.body.byteLength).toBeGreaterThan(8 * 1024 * 1024);

    const stats = (await (await fetch(`${b.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).not.toContain(roomId);
    // B cannot read bytes only A holds: it computes again, and its answer never quotes Redis.
    const other = await getData(b, 'big', params, roomId);
    if (other.status !== 200) {
      expect(other.status).toBe(503);
      expect(JSON.parse(other.body.toString())).toMatchObject({ code: 'SPC_ERR_REDIS_UNAVAILABLE' });
      expect(other.body.toString()).not.toMatch(QUOTED);
    } else {
      expect(other.body.equals(computed.body)).toBe(true);
    }
    // Nothing of the refused writes is left holding memory: small results still go through.
    expect((await getData(b, 'count', { dir: service.runs, tag: 'small', delay_ms: 0 }, room())).status).toBe(200);
  });
});

describe('a control Redis that may evict', () => {
  it('is warned about, naming its policy, at start and on reconnection', async () => {
    const service = await startService({ redisArgs: ['--maxmemory-policy', 'allkeys-lru'] });
    const host = await service.host();
    await host.waitForLog(/maxmemory-policy 'allkeys-lru'/);
    const from = host.stderr().length;
    await service.redis.restart();
    await host.waitForLog(/maxmemory-policy 'allkeys-lru'/, from);
  });
});

describe("a host's copies of results", () => {
  it('leave its memory once its entries have expired', async () => {
    const service = await startService();
    const host = await service.host({ args: ['--cache-ttl', '2', '--job-ttl', '1'] });
    await service.worker();
    const heldBytes = async () => ((await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as { total_bytes: number }).total_bytes;
    expect((await getData(host, 'big', { megabytes: 2, seed: 3 }, room())).status).toBe(200);
    expect(await heldBytes()).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    await waitFor(async () => ((await heldBytes()) === 0 ? true : undefined), 'the copy to leave');
  });
});
