/**
 * @module time-limit
 * Bounds a Redis operation that has no limit of its own (BullMQ waits for a connection for
 * ever; a large transfer runs on a connection without a per-command timeout): it rejects with
 * an error naming the operation once `ms` have passed, so a request answers 503 instead of hanging.
 */

export function withTimeLimit<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} got no answer within ${Math.round(ms)} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
