import { describe, expect, it } from 'vitest';
import { RoomCache } from '../../core/cache/room-cache.ts';

describe('RoomCache', () => {
  it('keeps one entry per room, replaces on a new key, expires and frees after the TTL', () => {
    let now = 0;
    const cache = new RoomCache<string>({ ttlSeconds: 10, now: () => now, sweepIntervalMs: 0 });
    cache.set('a', 'k1', 'f', ['x'], 'one');
    expect(cache.get('a', 'k1')?.value).toBe('one');
    expect(cache.get('a', 'k2')).toBeUndefined();
    cache.set('a', 'k2', 'f', ['x'], 'two');
    expect(cache.get('a', 'k1')).toBeUndefined();
    cache.set('b', 'k1', 'f', [], 'three');
    expect(cache.size).toBe(2);
    now = 9_999;
    expect(cache.get('a', 'k2')?.accessCount).toBe(2);
    now = 10_000;
    expect(cache.sweep()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('reports stats with the documented fields', () => {
    let now = 1000;
    const cache = new RoomCache<string>({ ttlSeconds: 300, now: () => now, sweepIntervalMs: 0 });
    cache.set('r', 'k', 'sphere', [], 'v');
    cache.get('r', 'k');
    now += 1500;
    expect(cache.stats()).toEqual({
      total_entries: 1,
      ttl_seconds: 300,
      total_bytes: 0,
      max_bytes: null,
      entries: [{ room_id: 'r', function_name: 'sphere', age_seconds: 1.5, access_count: 2 }],
    });
  });
});
