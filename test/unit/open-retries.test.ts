/**
 * Remote specimens left unopened are tried again by themselves: after 5 s, then twice as long
 * each time up to 5 minutes, until every one opens; the wait starts over after a success, a
 * refresh that throws counts as one left unopened, and a closed host tries no more.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_RETRY_MS, MOST_RETRY_MS, OpenRetries } from '../../core/remote/open-retries.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Retries whose refresh answers `outcomes` in turn (true: all open; an Error: it throws), counting the calls. */
function retriesOf(outcomes: (boolean | Error)[]): { retries: OpenRetries; calls: () => number; warned: string[] } {
  let calls = 0;
  const warned: string[] = [];
  const refresh = async () => {
    const outcome = outcomes[Math.min(calls++, outcomes.length - 1)]!;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  };
  return { retries: new OpenRetries(refresh, (message) => warned.push(message)), calls: () => calls, warned };
}

describe('OpenRetries', () => {
  it('tries again after 5 s, then twice as long each time, until all are open', async () => {
    const { retries, calls } = retriesOf([false, false, false, true]);
    await retries.run();
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS - 1);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(2 * FIRST_RETRY_MS);
    expect(calls()).toBe(3);
    await vi.advanceTimersByTimeAsync(4 * FIRST_RETRY_MS);
    expect(calls()).toBe(4);
    // All open: no more tries.
    await vi.advanceTimersByTimeAsync(10 * MOST_RETRY_MS);
    expect(calls()).toBe(4);
  });

  it('waits at most 5 minutes, and starts over from 5 s after a success', async () => {
    const outcomes = [...Array<boolean>(12).fill(false), true, false];
    const { retries, calls } = retriesOf(outcomes);
    await retries.run();
    let waited = 0;
    for (let i = 0; i < 11; i++) {
      const wait = Math.min(MOST_RETRY_MS, FIRST_RETRY_MS * 2 ** i);
      await vi.advanceTimersByTimeAsync(wait);
      waited += wait;
      expect(calls(), `after ${waited} ms`).toBe(i + 2);
    }
    expect(Math.min(MOST_RETRY_MS, FIRST_RETRY_MS * 2 ** 10)).toBe(MOST_RETRY_MS);
    await vi.advanceTimersByTimeAsync(MOST_RETRY_MS);
    expect(calls()).toBe(13);
    // Opened; then a later refresh leaves one unopened again: the first wait again.
    await retries.run();
    expect(calls()).toBe(14);
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(calls()).toBe(15);
  });

  it('counts a refresh that throws as one left unopened, and one closed tries no more', async () => {
    const { retries, calls, warned } = retriesOf([new Error('store away'), false]);
    await retries.run();
    expect(warned).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(calls()).toBe(2);
    retries.close();
    await vi.advanceTimersByTimeAsync(10 * MOST_RETRY_MS);
    expect(calls()).toBe(2);
  });
});
