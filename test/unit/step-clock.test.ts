/**
 * StepClock: beats keep the rate's timeline, so the time each tick takes does not slow the
 * rate down; a clock far behind beats once and goes on from there.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StepClock } from '../../viewer/time/step-clock.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('StepClock', () => {
  it('beats at its rate when each tick takes 40 % of a beat', async () => {
    const start = Date.now();
    const beats: number[] = [];
    const clock = new StepClock(() => {
      beats.push(Date.now() - start);
      // The tick (a draw) takes 40 ms of the page's time.
      vi.setSystemTime(Date.now() + 40);
    });
    clock.setRate(10);
    await vi.advanceTimersByTimeAsync(1000);
    clock.stop();
    expect(beats.slice(0, 5)).toEqual([100, 200, 300, 400, 500]);
  });

  it('beats once at once when far behind, then keeps time from there', async () => {
    const start = Date.now();
    const beats: number[] = [];
    const clock = new StepClock(() => {
      beats.push(Date.now() - start);
      // The second tick holds the page for three beats.
      if (beats.length === 2) vi.setSystemTime(Date.now() + 300);
    });
    clock.setRate(10);
    await vi.advanceTimersByTimeAsync(800);
    clock.stop();
    // At once: the timer's next turn (a millisecond on), then a beat every 100 ms from 500.
    expect(beats.slice(0, 5)).toEqual([100, 200, 501, 600, 700]);
  });
});
