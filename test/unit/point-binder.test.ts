/**
 * The point binder's pace: a burst of changes to a room's marks brings one recomputation (at
 * the end of its interval, reading the points then), a change while one runs brings exactly
 * one more after it, rooms are paced apart, the layers a recomputation concerns are those of
 * the changes it joins (every bound one once the marks changed), a failing recomputation is
 * reported and does not stop later ones, and nothing runs after close. The port counts what it
 * is asked; nothing here measures time.
 */
import { describe, expect, it } from 'vitest';
import { PointBinder } from '../../core/annotations/point-binder.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A port whose recomputations end when the test says so; `asked`: the layers each concerned (undefined: all). */
function port() {
  const runs: string[] = [];
  const asked: (readonly string[] | undefined)[] = [];
  const waiting: (() => void)[] = [];
  return {
    runs,
    asked,
    finish: () => waiting.splice(0).forEach((done) => done()),
    pending: () => waiting.length,
    recomputeBound: (roomId: string, layerIds?: readonly string[]) => {
      runs.push(roomId);
      asked.push(layerIds && [...layerIds].sort());
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}

describe('point binder', () => {
  it('joins a burst into one recomputation, and a change during it into exactly one more', async () => {
    const p = port();
    const binder = new PointBinder(p, { intervalMs: 20 });
    for (let i = 0; i < 50; i++) binder.changed('a');
    await waitFor(() => (p.pending() === 1 ? true : undefined), 'the first recomputation');
    for (let i = 0; i < 10; i++) binder.changed('a');
    expect(p.runs).toEqual(['a']);
    p.finish();
    await waitFor(() => (p.pending() === 1 ? true : undefined), 'the one after it');
    p.finish();
    binder.changed('b');
    await waitFor(() => (p.pending() === 1 ? true : undefined), "room b's");
    p.finish();
    expect(p.runs).toEqual(['a', 'a', 'b']);
    binder.close();
  });

  it('asks for the layers the joined changes concern: some, or all once the marks changed', async () => {
    const p = port();
    const binder = new PointBinder(p, { intervalMs: 20 });
    binder.changed('a', ['seg']);
    binder.changed('a', ['mask', 'seg']);
    binder.changed('a', []);
    await waitFor(() => (p.pending() === 1 ? true : undefined), 'the first recomputation');
    binder.changed('a', ['seg']);
    binder.changed('a');
    p.finish();
    await waitFor(() => (p.pending() === 1 ? true : undefined), 'the one after it');
    p.finish();
    expect(p.asked).toEqual([['mask', 'seg'], undefined]);
    // No layer concerned: nothing to run. Room c, changed after b and paced alike, runs; b never does.
    binder.changed('b', []);
    binder.changed('c');
    await waitFor(() => (p.pending() === 1 ? true : undefined), "room c's");
    p.finish();
    expect(p.runs).toEqual(['a', 'a', 'c']);
    binder.close();
  });

  it('reports a failed recomputation and keeps pacing; runs nothing once closed', async () => {
    const errors: string[] = [];
    let calls = 0;
    const binder = new PointBinder(
      {
        recomputeBound: async () => {
          calls++;
          throw new Error('no such function');
        },
      },
      { intervalMs: 5, onError: (room, error) => errors.push(`${room}: ${(error as Error).message}`) },
    );
    binder.changed('r');
    await waitFor(() => (errors.length === 1 ? true : undefined), 'the failure reported');
    binder.changed('r');
    await waitFor(() => (errors.length === 2 ? true : undefined), 'the next one');
    binder.close();
    binder.changed('r');
    expect(calls).toBe(2);
  });
});
