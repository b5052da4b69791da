/**
 * @module host-heartbeat
 * Every host of a Redis service, computing or not, says it is alive every 2 s: its id in the
 * `hosts` sorted set, scored by when that word expires. A computation counts the requests of a
 * host waiting on it only while the host's heartbeat lives, so the waiters of a host that was
 * killed stop holding the computation (a DELETE of its last job still stops it).
 */
import type { Redis } from 'ioredis';
import { HEARTBEAT_MS, NODE_EXPIRY_MS } from './compute-nodes.ts';
import { KEYS } from '../redis/redis-keys.ts';

/** Entries this long past their expiry are trimmed by whichever host beats next. */
const TRIM_AFTER_MS = 60_000;

/** Starts the heartbeat of host `hostId`; the returned function stops it and withdraws the host. */
export function startHostHeartbeat(redis: Redis, hostId: string): () => Promise<void> {
  const beat = () => {
    const now = Date.now();
    void redis.multi().zadd(KEYS.hosts, now + NODE_EXPIRY_MS, hostId).zremrangebyscore(KEYS.hosts, '-inf', now - TRIM_AFTER_MS).exec().catch(() => {});
  };
  const timer = setInterval(beat, HEARTBEAT_MS).unref();
  // Back from an outage, at once rather than at the next period.
  redis.on('ready', beat);
  beat();
  return async () => {
    clearInterval(timer);
    redis.off('ready', beat);
    await redis.zrem(KEYS.hosts, hostId).catch(() => 0);
  };
}
