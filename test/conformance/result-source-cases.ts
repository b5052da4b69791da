/**
 * @module result-source-cases
 * The ResultSource conformance cases: what every implementation (in-memory ResultService, the
 * Redis service) must do alike — room caching (one entry a room, keyed by function and
 * parameters with defaults filled),
 * shared computations, room state and events, clearing, failure and cancellation. Runs are
 * counted by the `counted` and `ticker` fixtures writing to a folder, so any process may run them.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import type { HostEvent } from '../../core/events/event-hub.ts';
import { computeResultId } from '../../core/results/result-id.ts';
import { computeResult } from '../../core/serving/result-source.ts';
import { roomChannel } from '../../core/events/channels.ts';
import { room } from '../helpers/create-test-app.ts';
import { countDir, failure, linesIn, quiet, use, type ResultSourceHarness } from './service-harness.ts';

const SQUARE_DEFAULTS = { size: 1, label: 'a', flag: false, note: '' };

function delta(before: { hit: number; miss: number; shared: number }, after: { hit: number; miss: number; shared: number }) {
  return { hit: after.hit - before.hit, miss: after.miss - before.miss, shared: after.shared - before.shared };
}

export function resultSourceCases(make: () => Promise<ResultSourceHarness>): void {
  describe('ResultSource', () => {
    it('computes on a miss and serves the same key in the room from the cache without running again', async () => {
      const h = await use(make);
      const dir = await countDir();
      const r = room();
      const before = { ...h.results.accessCounts };
      const first = await computeResult(h.results, h.request('counted', { dir, delay_ms: 1 }, r));
      const second = await computeResult(h.results, h.request('counted', { dir, delay_ms: 1 }, r));
      expect(await linesIn(dir, 'x.runs')).toBe(1);
      expect(delta(before, h.results.accessCounts)).toEqual({ hit: 1, miss: 1, shared: 0 });
      expect(second.type).toBe('mesh');
      if (first.type === 'mesh' && second.type === 'mesh') expect(Array.from(second.vertices)).toEqual(Array.from(first.vertices));
      const entry = (await h.results.stats()).entries.filter((e) => e.room_id === r);
      expect(entry).toMatchObject([{ function_name: 'counted', access_count: 2 }]);
    });

    it('treats {} and the explicit defaults as one key', async () => {
      const h = await use(make);
      const dir = await countDir();
      const r = room();
      await computeResult(h.results, h.request('counted', { dir }, r));
      await computeResult(h.results, h.request('counted', { dir, tag: 'x', delay_ms: 300 }, r));
      expect(await linesIn(dir, 'x.runs')).toBe(1);
      const before = { ...h.results.accessCounts };
      await computeResult(h.results, h.request('square', {}, r));
      await computeResult(h.results, h.request('square', SQUARE_DEFAULTS, r));
      expect(delta(before, h.results.accessCounts)).toMatchObject({ hit: 1, miss: 1 });
    });

    it('replaces the room’s entry on a different key: one entry per room, the old key runs again', async () => {
      const h = await use(make);
      const dir = await countDir();
      const [a, b] = [room(), room()];
      const run = (tag: string, r: string) => computeResult(h.results, h.request('counted', { dir, tag, delay_ms: 1 }, r));
      await run('one', a);
      expect(await h.results.roomState(a)).toMatchObject({ function_name: 'counted', params: { tag: 'one' } });
      await run('two', a);
      expect(await h.results.roomState(a)).toMatchObject({ function_name: 'counted', params: { tag: 'two' } });
      await run('one', a);
      await run('one', b);
      expect(await linesIn(dir, 'one.runs')).toBe(3);
      expect(await linesIn(dir, 'two.runs')).toBe(1);
      await computeResult(h.results, h.request('square', { size: 2 }, a));
      const stats = await h.results.stats();
      expect(stats.entries.filter((e) => e.room_id === a)).toMatchObject([{ function_name: 'square' }]);
      expect(stats.entries.filter((e) => e.room_id === b)).toMatchObject([{ function_name: 'counted' }]);
      expect(stats.total_entries).toBe(stats.entries.length);
    });

    it('shares one computation between identical requests in flight in one room', async () => {
      const h = await use(make);
      const dir = await countDir();
      const r = room();
      const before = { ...h.results.accessCounts };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => computeResult(h.results, h.request('counted', { dir, tag: 'herd', delay_ms: 400 }, r))),
      );
      expect(results.map((result) => result.type)).toEqual(['mesh', 'mesh', 'mesh', 'mesh', 'mesh']);
      expect(await linesIn(dir, 'herd.runs')).toBe(1);
      const counted = delta(before, h.results.accessCounts);
      expect(counted.miss).toBe(1);
      expect(counted.hit + counted.miss + counted.shared).toBe(5);
    });

    it('shows a room’s entry: null before, then function, specimen, filled params and type', async () => {
      const h = await use(make);
      const [r, plain] = [room(), room()];
      expect(await h.results.roomState(r)).toBeNull();
      const square = await computeResult(h.results, h.request('square', { size: 2 }, r, { specimenId: 'dyn-square' }));
      expect(await h.results.roomState(r)).toEqual({
        function_name: 'square',
        specimen_id: 'dyn-square',
        params: { ...SQUARE_DEFAULTS, size: 2 },
        type: 'mesh',
        result_id: computeResultId(square),
        blob_id: computeResultId(square),
        since: expect.any(Number),
      });
      const cloud = await computeResult(h.results, h.request('cloud', {}, plain));
      expect(await h.results.roomState(plain)).toEqual({
        function_name: 'cloud',
        specimen_id: null,
        params: { count: 5 },
        type: 'point_cloud',
        result_id: computeResultId(cloud),
        blob_id: computeResultId(cloud),
        since: expect.any(Number),
      });
    });

    it('publishes `computing` then `result` on the room’s channel', async () => {
      const h = await use(make);
      const r = room();
      const seen: HostEvent[] = [];
      const off = h.events.subscribe(roomChannel(r), (event) => seen.push(event));
      try {
        await computeResult(h.results, h.request('square', { size: 3 }, r, { specimenId: 'dyn-square' }));
        await waitFor(() => (seen.some((e) => e.event === 'result') ? true : undefined), 'the result event');
      } finally {
        off();
      }
      expect(seen.map((e) => e.event)).toEqual(['computing', 'result']);
      const state = { function_name: 'square', specimen_id: 'dyn-square', params: { ...SQUARE_DEFAULTS, size: 3 }, type: 'mesh' };
      expect(seen[0]!.data).toEqual({ ...state, job_id: null });
      expect(seen[1]!.data).toEqual({ ...state, result_id: expect.stringMatching(/^[0-9a-f]{64}$/), blob_id: expect.stringMatching(/^[0-9a-f]{64}$/) });
    });

    it('looks a result up without computing, and opens a cached one', async () => {
      const h = await use(make);
      const dir = await countDir();
      const r = room();
      const request = h.request('counted', { dir, delay_ms: 1 }, r);
      expect(await h.results.lookup(request)).toBeUndefined();
      expect(await linesIn(dir, 'x.runs')).toBe(0);
      await computeResult(h.results, request);
      expect((await h.results.lookup(request))?.type).toBe('mesh');
      expect((await h.results.open(request)).result.type).toBe('mesh');
      expect(await linesIn(dir, 'x.runs')).toBe(1);
    });

    it('clear() drops every room entry: stats empty, room state null, the next request runs again', async () => {
      const h = await use(make);
      const dir = await countDir();
      const [a, b] = [room(), room()];
      await computeResult(h.results, h.request('counted', { dir, delay_ms: 1 }, a));
      await computeResult(h.results, h.request('square', {}, b));
      expect(await h.results.clear()).toBeGreaterThanOrEqual(2);
      const stats = await h.results.stats();
      expect(stats.total_entries).toBe(0);
      expect(stats.entries).toEqual([]);
      expect(await h.results.roomState(a)).toBeNull();
      await computeResult(h.results, h.request('counted', { dir, delay_ms: 1 }, a));
      expect(await linesIn(dir, 'x.runs')).toBe(2);
    });

    it('rejects with SPC_ERR_FUNCTION_FAILED naming the function when it throws, and caches nothing', async () => {
      const h = await use(make);
      const r = room();
      const error = await failure(computeResult(h.results, h.request('explode', { message: 'kaput' }, r)));
      expect(error.code).toBe('SPC_ERR_FUNCTION_FAILED');
      expect(error.message).toContain('explode');
      expect(error.message).toContain('kaput');
      expect(await h.results.roomState(r)).toBeNull();
    });

    it('cancels the computation when its only waiter aborts (SPC_ERR_JOB_CANCELLED) and the function stops', async () => {
      const h = await use(make);
      const dir = await countDir();
      const r = room();
      const controller = new AbortController();
      const computing = computeResult(h.results, h.request('ticker', { dir }, r, { signal: controller.signal }));
      await waitFor(async () => ((await linesIn(dir, 'ticks.ticks')) >= 2 ? true : undefined), 'the ticker to tick');
      controller.abort();
      expect((await failure(computing)).code).toBe('SPC_ERR_JOB_CANCELLED');
      await quiet(() => linesIn(dir, 'ticks.ticks'), 'the cancelled ticker');
      expect(await h.results.roomState(r)).toBeNull();
    });

    it('keeps a shared computation running for the waiters left when one aborts', async () => {
      const h = await use(make);
      const dir = await countDir();
      const r = room();
      const leaving = new AbortController();
      const request = (signal: AbortSignal) => h.request('counted', { dir, tag: 'kept', delay_ms: 400 }, r, { signal });
      const left = computeResult(h.results, request(leaving.signal));
      const staying = computeResult(h.results, request(new AbortController().signal));
      await waitFor(async () => ((await linesIn(dir, 'kept.runs')) === 1 ? true : undefined), 'the computation to start');
      leaving.abort();
      expect((await failure(left)).code).toBe('SPC_ERR_JOB_CANCELLED');
      expect((await staying).type).toBe('mesh');
      expect(await linesIn(dir, 'kept.runs')).toBe(1);
      expect(await h.results.roomState(r)).toMatchObject({ function_name: 'counted', params: { tag: 'kept' } });
    });
  });
}
