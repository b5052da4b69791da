/**
 * @module redis-unavailable
 * Turns a failed Redis command into the host's 503 (SPC_ERR_REDIS_UNAVAILABLE): the
 * connection is down, the command timed out, or the server refused it. Host errors pass through.
 */
import { isHostError, wrapHostError } from '../errors.ts';

export function redisUnavailable(error: unknown): Error {
  if (isHostError(error)) return error;
  const why = error instanceof Error ? error.message : String(error);
  return wrapHostError(error, 'SPC_ERR_REDIS_UNAVAILABLE', why);
}

/** Runs `work`, turning Redis failures into the 503. */
export async function orUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw redisUnavailable(error);
  }
}
