/**
 * @module time-limit
 * Bounds a Redis operation that has no limit of its own (BullMQ waits for a connection for
 * ever; a large transfer runs on a connection without a per-command timeout): it rejects with
 * a TimeLimitError naming the operation once `ms` have passed, so a request answers 503
 * instead of hanging. A process that starts before its Redis answers waits a bounded while
 * too, then goes on without it (START_WAIT_MS, waitAtMost).
 */

/**
 * Longest a starting process waits for Redis (its connections, subscriptions, compute node or
 * relay node) before it goes on without it: a host serves anyway (liveness and catalog answer,
 * not ready), a worker's node starts taking work when Redis comes.
 */
export const START_WAIT_MS = 10_000;

/** Waits for `work` to settle, or `ms`, whichever comes first; never rejects. */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.then(noop, noop), late]).finally(() => clearTimeout(timer));
}

function noop(): void {}

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
