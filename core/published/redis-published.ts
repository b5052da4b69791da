/**
 * @module redis-published
 * Published specimens on a Redis service: one hash of records (every host lists them) and
 * each file's bytes under its own key, both for the published time-to-live, and a version
 * counter that every publish and delete moves so hosts know when to read the list again.
 * Records past their expiry are skipped and removed by whoever reads them; a host renews what
 * a room still names ahead of its expiry (the record and its file's time-to-live).
 */
import type { Redis } from 'ioredis';
import { isPublishedMeta, type PublishedMeta, type PublishedShare } from './published-record.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';

function parse(raw: string | null | undefined): PublishedMeta | null {
  const value = raw ? storedJson(raw) : null;
  return isPublishedMeta(value) ? value : null;
}

export class RedisPublished implements PublishedShare {
  #redis: Redis;
  /** The connection that carries large values (the file bytes). */
  #bytes: Redis;

  constructor(redis: Redis, bytes: Redis) {
    this.#redis = redis;
    this.#bytes = bytes;
  }

  async version(): Promise<string> {
    return (await orUnavailable(this.#redis.get(KEYS.publishedVersion))) ?? '0';
  }

  async list(): Promise<PublishedMeta[]> {
    const all = await orUnavailable(this.#redis.hgetall(KEYS.published));
    const now = Date.now();
    const live: PublishedMeta[] = [];
    const gone: string[] = [];
    for (const [id, raw] of Object.entries(all)) {
      const meta = parse(raw);
      if (meta && meta.expires_at > now) live.push(meta);
      else gone.push(id);
    }
    if (gone.length > 0) void this.#redis.hdel(KEYS.published, ...gone).catch(() => 0);
    return live;
  }

  async read(meta: PublishedMeta): Promise<Buffer | null> {
    return orUnavailable(this.#bytes.getBuffer(KEYS.publishedFile(meta.id, meta.sha)));
  }

  async put(meta: PublishedMeta, bytes: Buffer): Promise<boolean> {
    const ttlMs = Math.max(1, meta.expires_at - Date.now());
    const old = parse(await orUnavailable(this.#redis.hget(KEYS.published, meta.id)));
    // The bytes first: a host that sees the record can always read its file.
    await orUnavailable(this.#bytes.set(KEYS.publishedFile(meta.id, meta.sha), bytes, 'PX', ttlMs));
    const write = this.#redis.multi().hset(KEYS.published, meta.id, JSON.stringify(meta)).incr(KEYS.publishedVersion);
    await orUnavailable(write.exec());
    if (old && old.sha !== meta.sha) await this.#bytes.del(KEYS.publishedFile(old.id, old.sha)).catch(() => 0);
    return old !== null && old.expires_at > Date.now();
  }

  async renew(meta: PublishedMeta): Promise<void> {
    const old = parse(await orUnavailable(this.#redis.hget(KEYS.published, meta.id)));
    // Only the same file lives longer: a file published over it meanwhile keeps its own expiry.
    if (!old || old.sha !== meta.sha || old.expires_at >= meta.expires_at) return;
    await orUnavailable(this.#bytes.pexpireat(KEYS.publishedFile(meta.id, meta.sha), meta.expires_at));
    await orUnavailable(this.#redis.hset(KEYS.published, meta.id, JSON.stringify({ ...old, expires_at: meta.expires_at })));
  }

  async remove(id: string): Promise<boolean> {
    const old = parse(await orUnavailable(this.#redis.hget(KEYS.published, id)));
    if (!old) return false;
    await orUnavailable(this.#redis.multi().hdel(KEYS.published, id).incr(KEYS.publishedVersion).exec());
    await this.#bytes.del(KEYS.publishedFile(old.id, old.sha)).catch(() => 0);
    return old.expires_at > Date.now();
  }
}
