/**
 * @module redis-connections
 * The Redis connections of one process, each with the settings its use needs (the known
 * pitfalls of BullMQ and ioredis): `command` serves the request path with no offline queue and
 * a command timeout, so a request fails fast with 503 while Redis is away instead of hanging;
 * `subscriber` is given to pub/sub (a subscribed connection can do nothing else); `blobs`
 * carries result bytes, apart from the small commands, to the blob store's Redis (the same
 * Redis unless `--blob-store` names another); BullMQ's
 * workers get connections of their own that retry forever (`maxRetriesPerRequest: null`), as
 * their blocking reads require. Every connection reconnects by itself with a capped backoff.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { defineScripts, type ScriptedRedis } from './redis-scripts.ts';
import { redactUrl } from '../redact-credentials.ts';

/** Longest a request-path command may take before it fails (then the request answers 503). */
export const COMMAND_TIMEOUT_MS = 2000;

/** Longest a connection attempt may hang before it is retried. */
const CONNECT_TIMEOUT_MS = 10_000;

const retryStrategy = (times: number): number => Math.min(100 * times, 1000);

function base(url: string, name: string): RedisOptions {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new TypeError(`a Redis address must be a redis:// URL, got '${redactUrl(url)}'`);
  // A refused connection fails at once whatever this says; it bounds only a connection that
  // hangs, and must outlast a busy start-up (loading plugins and threads can hold the event loop
  // for seconds, and a timer firing first would drop a connection that was about to open).
  return { connectionName: `vitrine-${name}`, retryStrategy, connectTimeout: CONNECT_TIMEOUT_MS };
}

/**
 * Resolves true once `redis` is ready; false after `ms`, or as soon as a connection attempt
 * fails (a refused connection): a process starts anyway and recovers by itself later.
 */
function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('reconnecting', onFailed);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onFailed = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady);
    redis.on('reconnecting', onFailed);
  });
}

export interface RedisConnections {
  url: string;
  /** The blob store's Redis (`url` unless given apart). */
  blobUrl: string;
  /** Request path: fails fast while disconnected. */
  command: ScriptedRedis;
  /** Pub/sub only. */
  subscriber: Redis;
  /**
   * Result bytes: fails fast while disconnected, but has no per-command timeout (a 256 MiB
   * read over a slow link takes seconds; the blob store bounds it by its size instead), and
   * keeps large transfers from queueing the request path's small commands behind them.
   */
  blobs: Redis;
  /** Resolves true once the connections that fail fast (command, blobs) are ready, false after `ms`. */
  ready(ms: number): Promise<boolean>;
  /** A new connection for a BullMQ Queue (fails fast) or Worker (`blocking`: retries forever). */
  forBullmq(blocking: boolean): Redis;
  close(): Promise<void>;
}

export function createRedisConnections(url: string, blobUrl: string = url): RedisConnections {
  const opened: Redis[] = [];
  const open = (name: string, options: RedisOptions, at = url): Redis => {
    const redis = new Redis(at, { ...base(at, name), ...options });
    // Errors are reported by the commands that meet them and by /readyz; an unhandled
    // 'error' event would otherwise be printed for every reconnection attempt.
    redis.on('error', () => {});
    opened.push(redis);
    return redis;
  };
  const command = defineScripts(open('command', { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS }));
  const subscriber = open('subscriber', { maxRetriesPerRequest: null });
  const blobs = open('blobs', { enableOfflineQueue: false, maxRetriesPerRequest: 0 }, blobUrl);
  return {
    url,
    blobUrl,
    command,
    subscriber,
    blobs,
    ready: async (ms) => (await Promise.all([whenReady(command, ms), whenReady(blobs, ms)])).every(Boolean),
    forBullmq: (blocking) =>
      // BullMQ checks the server's version as it connects and keeps that first answer, so its
      // queue connection keeps an offline queue; scale/work-queue.ts bounds each call in time instead.
      open(
        blocking ? 'bullmq-worker' : 'bullmq-queue',
        blocking ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS },
      ),
    async close() {
      // QUIT only where Redis answers (it would wait for a reconnection otherwise), and not for long.
      await Promise.allSettled(
        opened.map(async (r) => {
          if (r.status !== 'ready') return r.disconnect();
          const timer = setTimeout(() => r.disconnect(), COMMAND_TIMEOUT_MS);
          await r.quit().catch(() => r.disconnect());
          clearTimeout(timer);
        }),
      );
    },
  };
}
