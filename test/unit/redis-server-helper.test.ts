/**
 * @module redis-server-helper.test
 * The real-Redis helper (helpers/redis-server.ts): it starts Debian's redis-server on a free
 * port, answers PING, stops, restarts on the same port, and fails loudly when the binary is missing.
 */
import { describe, expect, it } from 'vitest';
import { ping, startRedis } from '../helpers/redis-server.ts';

describe('startRedis', () => {
  it('starts a server that answers PING, stops it, and restarts it on the same port', async () => {
    const redis = await startRedis();
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(redis.running).toBe(true);
    expect(await ping(redis.port)).toBe(true);
    await redis.stop();
    expect(redis.running).toBe(false);
    expect(await ping(redis.port)).toBe(false);
    await redis.restart();
    expect(redis.running).toBe(true);
    expect(await ping(redis.port)).toBe(true);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    await redis.kill();
    expect(await ping(redis.port)).toBe(false);
    await redis.restart();
    expect(await ping(redis.port)).toBe(true);
    await redis.stop();
  });

  it('runs two servers side by side on different ports', async () => {
    const [a, b] = await Promise.all([startRedis(), startRedis()]);
    expect(a.port).not.toBe(b.port);
    expect(await ping(a.port)).toBe(true);
    expect(await ping(b.port)).toBe(true);
    // Left running: the helper stops them when this file ends.
  });

  it('fails with an install hint when redis-server is missing', async () => {
    await expect(startRedis({ binary: '/nonexistent/redis-server' })).rejects.toThrow(/not installed.*apt-get install -y redis-server/);
  });
});
