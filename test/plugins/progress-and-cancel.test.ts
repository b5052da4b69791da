/**
 * The async example functions report one progress message per step, in order, and stop when
 * their AbortSignal fires (before the start or in the middle of the run).
 */
import { describe, expect, it } from 'vitest';
import type { ProgressReporter } from 'vitrine';
import { gyroid_surface, metaball_surface } from '../../plugins/isosurfaces/index.ts';
import { gray_scott_pattern } from '../../plugins/reaction-diffusion/index.ts';

interface Report { text: string; fraction: number | undefined }

function collector(onReport?: (count: number) => void): ProgressReporter & { reports: Report[] } {
  const reports: Report[] = [];
  return {
    reports,
    report(text, fraction) {
      reports.push({ text, fraction });
      onReport?.(reports.length);
    },
  };
}

function expectMonotonicFractions(reports: Report[]): void {
  let last = 0;
  for (const { fraction } of reports) {
    expect(fraction).toBeTypeOf('number');
    expect(fraction!).toBeGreaterThanOrEqual(last);
    expect(fraction!).toBeLessThanOrEqual(1);
    last = fraction!;
  }
  expect(last).toBe(1);
}

describe('progress', () => {
  it('metaball_surface reports every sampled slab, every extracted slab, then normals', async () => {
    const progress = collector();
    const mesh = await metaball_surface(5, 0.3, 12, 1, progress);
    const texts = progress.reports.map((r) => r.text);
    expect(texts.slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `sampling field ${i + 1}/12`));
    expect(texts.slice(12, 23)).toEqual(Array.from({ length: 11 }, (_, i) => `extracting surface ${i + 1}/11`));
    expect(texts).toHaveLength(24);
    expect(texts[23]).toBe(`computing normals: ${mesh.vertices.length / 3} vertices, ${mesh.indices.length / 3} triangles`);
    expectMonotonicFractions(progress.reports);
  });

  it('gray_scott_pattern reports each step, then the colouring', async () => {
    const progress = collector();
    await gray_scott_pattern('maze', 24, 5, 3, 1, progress);
    expect(progress.reports.map((r) => r.text)).toEqual([
      'step 1/5: 3 iterations', 'step 2/5: 6 iterations', 'step 3/5: 9 iterations',
      'step 4/5: 12 iterations', 'step 5/5: 15 iterations', 'colouring image',
    ]);
    expectMonotonicFractions(progress.reports);
  });
});

describe('cancellation', () => {
  it('an already aborted signal stops each async function before any work', async () => {
    const signal = AbortSignal.abort();
    for (const run of [
      (p: ProgressReporter) => metaball_surface(undefined, undefined, undefined, undefined, p, signal),
      (p: ProgressReporter) => gyroid_surface(undefined, undefined, undefined, p, signal),
      (p: ProgressReporter) => gray_scott_pattern(undefined, undefined, undefined, undefined, undefined, p, signal),
    ]) {
      const progress = collector();
      await expect(run(progress)).rejects.toMatchObject({ name: 'AbortError' });
      expect(progress.reports).toEqual([]);
    }
  });

  it('aborting mid-run stops the isosurface at the next step', async () => {
    const controller = new AbortController();
    const progress = collector((count) => { if (count === 5) controller.abort(); });
    await expect(gyroid_surface(1.5, 0.35, 64, progress, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(progress.reports).toHaveLength(5);
  });

  it('aborting mid-run stops the slow reaction-diffusion at the next step', async () => {
    const controller = new AbortController();
    const progress = collector((count) => { if (count === 2) controller.abort(new Error('cancelled')); });
    await expect(gray_scott_pattern('coral', 64, 30, 20, 5, progress, controller.signal)).rejects.toThrow('cancelled');
    expect(progress.reports.map((r) => r.text)).toEqual(['step 1/30: 20 iterations', 'step 2/30: 40 iterations']);
  });

  it('an abort from another task is seen while the function yields', async () => {
    const controller = new AbortController();
    const progress = collector((count) => { if (count === 3) setImmediate(() => controller.abort()); });
    await expect(metaball_surface(8, 0.3, 48, 2, progress, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    // The abort lands during the yield after message 3 or 4 (setImmediate order), never later.
    expect(progress.reports.length).toBeLessThanOrEqual(4);
  });
});
