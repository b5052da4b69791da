/**
 * StepPlayer and StepCache: going to a step fetches it and two steps either way (wrapping
 * round), and playing a second of steps ahead; a step is drawn as soon as it is in; playing moves on a step per beat once the step
 * before is drawn; a step whose full level is late by its beat is fetched coarse as well and
 * drawn from it, so playback goes on; a beat never skips a step that is not drawn at all; the
 * cache keeps a bounded number of steps within a byte budget and cancels the fetches it drops.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpecimenData, VolumeData } from '../../core/wire/decoded-types.ts';
import type { DeliveryQuery } from '../../core/wire/wire-types.ts';
import { StepCache, type StepLevel } from '../../viewer/time/step-cache.ts';
import { StepPlayer } from '../../viewer/time/step-player.ts';

const volume = (t: number): VolumeData => ({
  type: 'volume', shape: [1, 1, 1], dtype: 'uint8', data: new Uint8Array([t]), spacing: null, origin: null, value_range: null,
});

/** A fetch that answers each query when the test says so (`answer`), or at once when `instant` says so. */
function fakeFetch(instant: (query: DeliveryQuery) => boolean) {
  const queries: DeliveryQuery[] = [];
  const aborted: DeliveryQuery[] = [];
  const waiting = new Map<string, () => void>();
  const fetch = (query: DeliveryQuery, signal: AbortSignal): Promise<SpecimenData> => {
    queries.push(query);
    signal.addEventListener('abort', () => aborted.push(query));
    if (instant(query)) return Promise.resolve(volume(Number(query.t)));
    return new Promise((resolve) => waiting.set(JSON.stringify(query), () => resolve(volume(Number(query.t)))));
  };
  return { fetch, queries, aborted, answer: (query: DeliveryQuery) => waiting.get(JSON.stringify(query))?.() };
}

const levelOf = (query: DeliveryQuery): StepLevel => (query.max_dim === undefined ? 'full' : 'coarse');

function harness(steps: number, instant: (query: DeliveryQuery) => boolean) {
  const net = fakeFetch(instant);
  const drawn: string[] = [];
  const cache = new StepCache(net.fetch, () => player.redraw());
  const player: StepPlayer = new StepPlayer({
    steps,
    cache,
    wanted: () => [0],
    draw(t) {
      const level: StepLevel | null = cache.get(t, 0, 'full') ? 'full' : cache.get(t, 0, 'coarse') ? 'coarse' : null;
      if (level === null) return false;
      if (drawn.at(-1) !== `${t} ${level}`) drawn.push(`${t} ${level}`);
      return true;
    },
    changed: () => {},
  });
  return { ...net, drawn, player, cache };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('StepPlayer', () => {
  it('fetches the step and two either way, wrapping round, and draws the step once it is in', async () => {
    const { player, queries, drawn, answer } = harness(10, () => false);
    player.go(0);
    expect(queries.map((q) => [q.t, q.c, levelOf(q)])).toEqual([
      [0, 0, 'full'], [1, 0, 'full'], [9, 0, 'full'], [2, 0, 'full'], [8, 0, 'full'],
    ]);
    expect(drawn).toEqual([]);
    answer({ t: 1, c: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(drawn).toEqual([]);
    answer({ t: 0, c: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(drawn).toEqual(['0 full']);
    expect(player.drawn).toBe(0);
  });

  it('plays a step a beat once the step before is drawn', async () => {
    const { player, drawn } = harness(3, () => true);
    player.go(0);
    await vi.advanceTimersByTimeAsync(0);
    player.setRate(10);
    await vi.advanceTimersByTimeAsync(400);
    expect(drawn).toEqual(['0 full', '1 full', '2 full', '0 full', '1 full']);
  });

  it('draws a step whose full level is late from its coarse level, and plays on', async () => {
    // Only step 0 and every coarse level ever come in: a link far too slow for the full steps.
    const { player, drawn, queries } = harness(4, (q) => q.t === 0 || levelOf(q) === 'coarse');
    player.go(0);
    await vi.advanceTimersByTimeAsync(0);
    player.setRate(10);
    await vi.advanceTimersByTimeAsync(300);
    expect(drawn).toEqual(['0 full', '1 coarse', '2 coarse', '3 coarse']);
    expect(queries.filter((q) => levelOf(q) === 'coarse').map((q) => q.t)).toEqual([1, 2, 3]);
  });

  it('waits on a step that is in at no level rather than skip it', async () => {
    const { player, drawn, answer } = harness(4, (q) => q.t === 0);
    player.go(0);
    await vi.advanceTimersByTimeAsync(0);
    player.setRate(10);
    await vi.advanceTimersByTimeAsync(500);
    expect(player.t).toBe(1);
    expect(drawn).toEqual(['0 full']);
    answer({ t: 1, c: 0, max_dim: 64 });
    await vi.advanceTimersByTimeAsync(0);
    expect(drawn).toEqual(['0 full', '1 coarse']);
    answer({ t: 1, c: 0 });
    await vi.advanceTimersByTimeAsync(0);
    // The full level replaces the coarse one when it comes before the next beat.
    expect(drawn).toEqual(['0 full', '1 coarse', '1 full']);
  });

  it('playing, fetches a second of steps ahead, as many as the cache holds', async () => {
    const { player, queries } = harness(100, () => false);
    player.go(0);
    player.setRate(10);
    const full = queries.filter((q) => levelOf(q) === 'full').map((q) => q.t);
    expect(new Set(full)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 98, 99]));
    // At 60 steps a second, only as many steps ahead as half the cache (20 for one piece).
    player.setRate(60);
    expect(Math.max(...queries.filter((q) => Number(q.t) < 50).map((q) => Number(q.t)))).toBe(20);
  });

  it('pauses on the step on screen, not on one still on its way', async () => {
    const { player, drawn } = harness(4, (q) => q.t !== 2);
    player.go(0);
    await vi.advanceTimersByTimeAsync(0);
    player.setRate(10);
    await vi.advanceTimersByTimeAsync(200);
    expect([player.t, player.drawn]).toEqual([2, 1]);
    player.pause();
    expect([player.t, player.rate]).toEqual([1, 0]);
    expect(drawn.at(-1)).toBe('1 full');
  });

  it('pauses at rate 0', async () => {
    const { player, drawn } = harness(3, () => true);
    player.go(1);
    player.setRate(10);
    await vi.advanceTimersByTimeAsync(100);
    player.setRate(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(player.t).toBe(2);
    expect(drawn.at(-1)).toBe('2 full');
  });
});

describe('StepCache', () => {
  it('keeps a bounded number of steps, cancelling the fetches it drops, and asks again for one that failed', async () => {
    let fail = true;
    const queries: DeliveryQuery[] = [];
    const aborted: number[] = [];
    const cache = new StepCache((query, signal) => {
      queries.push(query);
      signal.addEventListener('abort', () => aborted.push(Number(query.t)));
      if (query.t === 99 && fail) return Promise.reject(new Error('link down'));
      return new Promise(() => {});
    }, () => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (let t = 0; t < 45; t++) cache.load(t, 0, 'full');
    expect(aborted).toEqual([0, 1, 2, 3, 4]);
    // Touching a step keeps it: the next one dropped is the oldest untouched.
    cache.load(5, 0, 'full');
    cache.load(45, 0, 'full');
    expect(aborted).toEqual([0, 1, 2, 3, 4, 6]);
    cache.load(99, 0, 'full');
    await vi.advanceTimersByTimeAsync(0);
    fail = false;
    cache.load(99, 0, 'full');
    expect(queries.filter((q) => q.t === 99)).toHaveLength(2);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('keeps the samples within its byte budget, dropping the oldest steps first', async () => {
    const aborted: number[] = [];
    // Each step holds 1 byte: a budget of 3 keeps the last three in.
    const cache = new StepCache((query, signal) => {
      signal.addEventListener('abort', () => aborted.push(Number(query.t)));
      return Promise.resolve(volume(Number(query.t)));
    }, () => {}, { maxBytes: 3 });
    for (let t = 0; t < 5; t++) {
      cache.load(t, 0, 'full');
      await vi.advanceTimersByTimeAsync(0);
    }
    expect([0, 1, 2, 3, 4].map((t) => cache.get(t, 0, 'full') !== null)).toEqual([false, false, true, true, true]);
    expect(aborted).toEqual([0, 1]);
  });

  it('drops far steps before the one a player wants when the budget is tight', async () => {
    const cache = new StepCache((query) => Promise.resolve(volume(Number(query.t))), () => player.redraw(), { maxBytes: 3 });
    const player = new StepPlayer({ steps: 10, cache, wanted: () => [0], draw: (t) => cache.get(t, 0, 'full') !== null, changed: () => {} });
    player.go(5);
    await vi.advanceTimersByTimeAsync(0);
    expect([3, 4, 5, 6, 7].map((t) => cache.get(t, 0, 'full') !== null)).toEqual([false, true, true, true, false]);
    expect(player.drawn).toBe(5);
  });
});
