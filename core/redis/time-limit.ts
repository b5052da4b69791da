/**
 * @module time-limit
 * Bounds a Redis operation that has no limit of its own (BullMQ waits for a connection for
 * ever; a large transfer runs on a connection without a per-command timeout): it rejects with
 * a TimeLimitError naming the operation once `ms` have passed, so a request answers 503
 * instead of hanging.
 */

/** An operation that got no answer in time; its message is fit for a client. */
export class TimeLimitError extends Error {
  override name = 'TimeLimitError';
}

export function withTimeLimit<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitError(`${what} got no answer within ${Math.round(ms)} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
