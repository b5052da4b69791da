/**
 * @module redis-shared-bundles
 * Shared plugin versions on a Redis service: a set of plugin names, per plugin a sorted set of
 * bundle ids by when each was first offered (a service-wide counter), and each bundle's files packed under its id (on
 * the connection that carries large values). Kept without a time-to-live: what bounds them is
 * each plugin's newest `keep`, and the offer that pushes a version out removes its bytes.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { packBundle, unpackBundle, type SharedBundle, type SharedBundles } from './shared-bundles.ts';

export class RedisSharedBundles implements SharedBundles {
  #redis: Redis;
  #bytes: Redis;

  constructor(redis: Redis, bytes: Redis) {
    this.#redis = redis;
    this.#bytes = bytes;
  }

  async offer(plugin: string, bundleId: string, bundle: SharedBundle, keep: number): Promise<void> {
    // The bytes first: a version listed is always one a host can fetch.
    await orUnavailable(this.#bytes.set(KEYS.sharedBundle(bundleId), packBundle(bundle), 'NX'));
    const versions = KEYS.sharedVersions(plugin);
    // A counter, not a clock: offers from two hosts in one millisecond still have an order.
    const at = await orUnavailable(this.#redis.incr(KEYS.sharedClock));
    const replies = await orUnavailable(
      this.#redis
        .multi()
        .sadd(KEYS.sharedPlugins, plugin)
        .zadd(versions, 'NX', at, bundleId)
        .zrevrange(versions, Math.max(1, keep), -1)
        .exec(),
    );
    const gone = (replies?.[2]?.[1] as string[] | undefined) ?? [];
    if (gone.length === 0) return;
    await orUnavailable(this.#redis.zrem(versions, ...gone));
    await orUnavailable(this.#bytes.del(...gone.map((id) => KEYS.sharedBundle(id))));
  }

  async index(): Promise<Record<string, string[]>> {
    const plugins = (await orUnavailable(this.#redis.smembers(KEYS.sharedPlugins))).sort();
    if (plugins.length === 0) return {};
    const pipeline = this.#redis.pipeline();
    for (const plugin of plugins) pipeline.zrevrange(KEYS.sharedVersions(plugin), 0, -1);
    const replies = (await orUnavailable(pipeline.exec())) ?? [];
    return Object.fromEntries(plugins.map((plugin, i) => [plugin, (replies[i]?.[1] as string[] | undefined) ?? []]));
  }

  async fetch(bundleId: string): Promise<SharedBundle | null> {
    if (!/^[0-9a-f]{64}$/.test(bundleId)) return null;
    const bytes = await orUnavailable(this.#bytes.getBuffer(KEYS.sharedBundle(bundleId)));
    return bytes ? unpackBundle(bytes, bundleId) : null;
  }
}
