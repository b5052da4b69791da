/**
 * @module reconnect-delay
 * Exponential backoff with jitter for a worker rejoining its relay: 0.5 s doubling up to
 * 10 s, each delay drawn between half and all of its step so workers do not rejoin in lockstep.
 */

export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 10_000;

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(step * (0.5 + 0.5 * random()));
}
