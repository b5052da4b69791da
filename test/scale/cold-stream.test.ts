/**
 * @module cold-stream.test
 * A large result a host has never held is sent from the blob store as its chunks arrive
 * (redis-blob-store.ts `open`), across real processes: host B's first `/data` of a 20 MiB
 * volume host A computed (five 4 MiB chunks) is 200 with every byte equal to A's and the
 * announced Content-Length; a second read on B comes from its memory. A result one of whose
 * chunks is gone before the read is not promised: B computes it again and answers in full.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { room, useTwoHosts } from './service.ts';

const s = useTwoHosts();

async function data(host: RunningHost, params: object, roomId: string): Promise<{ status: number; length: number; body: Buffer }> {
  const query = new URLSearchParams({ params: JSON.stringify(params), room_id: roomId });
  const res = await fetch(`${host.url}/api/specimens/big/data?${query}`);
  return { status: res.status, length: Number(res.headers.get('content-length')), body: Buffer.from(await res.arrayBuffer()) };
}

describe('a large result read cold from the blob store', () => {
  it('is sent whole and byte-equal to the computing host, then served from memory', async () => {
    const r = room();
    const params = { megabytes: 20, seed: 7 };
    const first = await data(s.a, params, r);
    expect(first.status).toBe(200);
    expect(first.body.byteLength).toBeGreaterThan(20 * 1024 * 1024);
    const cold = await data(s.b, params, r);
    expect(cold.status).toBe(200);
    expect(cold.length).toBe(cold.body.byteLength);
    expect(cold.body.equals(first.body)).toBe(true);
    const warm = await data(s.b, params, r);
    expect(warm.body.equals(first.body)).toBe(true);
  });

  it('is not promised when a chunk is already gone: the host computes it again', async () => {
    const r = room();
    const params = { megabytes: 12, seed: 9 };
    const first = await data(s.a, params, r);
    expect(first.status).toBe(200);
    const redis = new Redis(s.service.redis.url);
    try {
      const chunks = await redis.keys('vitrine:blob:*:1');
      expect(chunks.length).toBeGreaterThan(0);
      await redis.del(...chunks);
    } finally {
      redis.disconnect();
    }
    const again = await data(s.b, params, r);
    expect(again.status).toBe(200);
    expect(again.length).toBe(again.body.byteLength);
    expect(again.body.equals(first.body)).toBe(true);
  });
});
