/**
 * The viewer's requests for levels of detail (viewer/layers/mesh/lod-store.ts): a request that
 * ends starts the next of the latest frame's wants at once, without waiting for another frame
 * (a slow frame must not hold the first picture back), and a want done since that frame is not
 * asked again.
 */
import { describe, expect, it } from 'vitest';
import { LodStore, type LodTask } from '../../viewer/layers/mesh/lod-store.ts';

/** A task whose run waits until it is let go, counting its runs. */
function task(key: string) {
  let release = (): void => {};
  const made = {
    runs: 0,
    release: () => release(),
    task: {
      key,
      urgency: 1,
      run: () => {
        made.runs++;
        return new Promise<void>((resolve) => (release = resolve));
      },
    } satisfies LodTask,
  };
  return made;
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the level-of-detail store', () => {
  it('starts the next want as a request ends, and never asks again what is done', async () => {
    let arrived = 0;
    const store = new LodStore({
      concurrency: 1,
      maxBytes: () => Infinity,
      decode: () => Promise.reject(new Error('no fragments here')),
      arrived: () => void arrived++,
      failed: (error) => {
        throw error;
      },
    });
    const [a, b, c] = [task('a'), task('b'), task('c')];
    store.update([a.task, b.task, c.task], [], new Set());
    expect([a.runs, b.runs, c.runs, store.inFlight]).toEqual([1, 0, 0, 1]);
    a.release();
    await settled();
    // No frame came between: b started as a ended.
    expect([a.runs, b.runs, c.runs, arrived]).toEqual([1, 1, 0, 1]);
    b.release();
    await settled();
    expect([a.runs, b.runs, c.runs]).toEqual([1, 1, 1]);
    // The next frame still lists c (in flight): nothing starts twice.
    store.update([c.task], [], new Set());
    expect(c.runs).toBe(1);
    store.dispose();
  });
});
