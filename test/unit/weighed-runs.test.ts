/**
 * @module weighed-runs.test
 * Work cut by what its items hold, not how many there are: a long polyline weighs its points,
 * so an import of polylines is taken a few thousand points a turn as one of single marks is,
 * and its log entries are cut the same way.
 */
import { describe, expect, it } from 'vitest';
import { marksAdded, LOGGED_MARKS } from '../../core/history/room-changes.ts';
import { inWeighedTurns, weighedRuns } from '../../core/memory/turn-batches.ts';
import type { Annotation } from '../../core/wire/scene-types.ts';

const mark = (id: number, points: number): Annotation =>
  ({ id: String(id), kind: points === 1 ? 'point' : 'polyline', points: Array.from({ length: points }, (_, i) => [i, 0, 0]) }) as Annotation;

describe('weighed runs', () => {
  it('cuts runs at the weight, in order, with an item heavier than the bound alone', () => {
    expect(weighedRuns([1, 1, 3, 1, 9, 2, 2], 4, (n) => n)).toEqual([[1, 1], [3, 1], [9], [2, 2]]);
    expect(weighedRuns([], 4, (n: number) => n)).toEqual([]);
  });

  it('gives each run its first index, a run per turn', async () => {
    const seen = await inWeighedTurns([2, 2, 2, 2, 2], 4, (n) => n, (run, at) => `${at}:${run.length}`);
    expect(seen).toEqual(['0:2', '2:2', '4:1']);
  });

  it('logs polylines in entries of at most LOGGED_MARKS points, single marks as before', () => {
    const lines = Array.from({ length: 6 }, (_, i) => mark(i, 900));
    const entries = marksAdded({ version: 106, annotations: lines });
    const held = entries.map((e) => (e.change.annotations as Annotation[]).map((a) => a.points.length).reduce((n, p) => n + p, 0));
    expect(Math.max(...held)).toBeLessThanOrEqual(LOGGED_MARKS);
    expect(entries.map((e) => e.change.version)).toEqual([102, 104, 106]);
    const points = Array.from({ length: LOGGED_MARKS + 1 }, (_, i) => mark(i, 1));
    expect(marksAdded({ version: LOGGED_MARKS + 1, annotations: points }).map((e) => (e.change.annotations as Annotation[]).length)).toEqual([LOGGED_MARKS, 1]);
  });
});
