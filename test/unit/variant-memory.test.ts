/**
 * Delivery variants stay inside the result budget and what the budget drops can be collected:
 * a long-lived result asked for many distinct shapings keeps only the variants the budget
 * has room for, and nothing else points at the dropped ones.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { DeliveryVariants } from '../../core/delivery/delivery-variants.ts';
import { LabelIndexes } from '../../core/delivery/label-indexes.ts';
import { VariantKeeper } from '../../core/delivery/variant-keeper.ts';
import { VariantWork } from '../../core/delivery/variant-work.ts';
import { collector } from '../../core/memory/idle-gc.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { resultByteLength } from '../../core/results/to-json-result.ts';
import { createPools, type Pools } from '../../core/workers/pool.ts';
import { deliveryTaskRunner } from '../../core/workers/task-pool.ts';

type Blob = { bytes: number; name: string };

/** Collects garbage after the current job (WeakRefs read in it are kept until it ends). */
async function collectGarbage(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const gc = collector();
  expect(gc).not.toBeNull();
  gc!();
}

function liveCount(refs: WeakRef<object>[]): number {
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

describe('variant memory', () => {
  it('a dependent the budget drops on its own leaves its source and can be collected', async () => {
    const budget = new ResultBudget<Blob>(100, (b) => b.bytes);
    const source = { name: 'volume', bytes: 40 };
    budget.hold(source, 'room:a', () => {});
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 200; i++) {
      const variant = { name: `window ${i}` };
      refs.push(new WeakRef(variant));
      budget.holdDependent(variant, 25, source, `variant:${i}`, () => {});
      budget.touch(source);
    }
    // The source (used with every variant) stays; only two 25-byte variants fit beside it.
    expect(budget.holds(source)).toBe(true);
    expect(budget.totalBytes).toBeLessThanOrEqual(100);
    expect(budget.size).toBe(3);
    expect(budget.dependentCount).toBe(2);
    await collectGarbage();
    expect(liveCount(refs)).toBe(2);
    // Released dependents leave too; the source going drops the rest.
    budget.release(source, 'room:a');
    expect(budget.dependentCount).toBe(0);
    expect(budget.totalBytes).toBe(0);
  });

  describe('on the encode thread', () => {
    let pools: Pools;
    afterAll(() => pools?.destroy());

    it('80 distinct windows of one held volume keep the variants the budget holds, no more', async () => {
      pools = await createPools({ computeThreads: 1 });
      const samples = 64 * 1024;
      const data = new Float32Array(new SharedArrayBuffer(samples * 4));
      for (let i = 0; i < samples; i++) data[i] = Math.sin(i / 100);
      const volume: StoredResult = { type: 'volume', shape: [64, 32, 32], dtype: 'float32', data };
      const bytes = resultByteLength(volume);
      // Room for the volume and three windowed copies of it.
      const budget = new ResultBudget<StoredResult>(bytes * 4, resultByteLength);
      budget.hold(volume, 'room:a', () => {});
      const work = new VariantWork(deliveryTaskRunner(pools.encode));
      const keeper = new VariantKeeper(budget);
      const variants = new DeliveryVariants({ work, keeper, labels: new LabelIndexes(work, keeper), levels: null });
      const refs: WeakRef<object>[] = [];
      for (let i = 0; i < 80; i++) {
        const shaped = await variants.shaped(volume, { window: [-1 + i / 1000, 1] });
        expect(shaped).not.toBe(volume);
        expect(shaped.type === 'volume' && shaped.valueRange).toEqual([-1 + i / 1000, 1]);
        refs.push(new WeakRef(shaped));
        expect(budget.totalBytes).toBeLessThanOrEqual(budget.maxBytes);
      }
      expect(variants.made).toBe(80);
      expect(budget.holds(volume)).toBe(true);
      expect(budget.dependentCount).toBe(3);
      await collectGarbage();
      // Only the variants still in the budget are reachable; the 77 it dropped are gone.
      expect(liveCount(refs)).toBe(3);
      // A window still held is served again without being made again.
      const again = await variants.shaped(volume, { window: [-1 + 79 / 1000, 1] });
      expect(again).toBe(refs[79]!.deref());
      expect(variants.made).toBe(80);
    });
  });
});
