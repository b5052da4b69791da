/**
 * @module redis-unavailable
 * Turns a failed Redis command into the host's 503 (SPC_ERR_REDIS_UNAVAILABLE), with a detail
 * in the service's own words: the connection is down, Redis did not answer in time, Redis is
 * out of memory, or it refused a command. The client library's and Redis's own messages
 * (script hashes, offline-queue advice) mean nothing to a client, so they never reach one.
 * Host errors pass through.
 */
import { isHostError, wrapHostError } from '../errors.ts';
import { TimeLimitError } from './time-limit.ts';

/** Whether `error` is Redis refusing a write because it reached its `maxmemory`. */
export function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /^OOM\b/.test(error.message);
}

/** How the service words a Redis that refused a write for want of memory. */
export const OUT_OF_MEMORY = 'Redis is out of memory and refused to store more';

/** What went wrong, said as the service would say it. */
export function describeRedisFailure(error: unknown): string {
  if (error instanceof TimeLimitError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (isOutOfMemory(error)) return OUT_OF_MEMORY;
  if (/timed? ?out/i.test(message)) return 'Redis did not answer in time';
  if (/writeable|closed|ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|connect|reconnect|MaxRetries|LOADING|end of stream/i.test(message)) {
    return 'the connection to Redis is down';
  }
  return 'Redis refused a command';
}

export function redisUnavailable(error: unknown): Error {
  if (isHostError(error)) return error;
  return wrapHostError(error, 'SPC_ERR_REDIS_UNAVAILABLE', describeRedisFailure(error));
}

/** Runs `work`, turning Redis failures into the 503. */
export async function orUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw redisUnavailable(error);
  }
}

/** Runs `write`, again every 250 ms for up to 5 s while Redis refuses it for want of memory. */
export async function whenMemoryAllows<T>(write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isOutOfMemory(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
