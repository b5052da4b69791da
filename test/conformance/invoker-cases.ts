/**
 * @module invoker-cases
 * The invoker conformance cases: what every Invoker (inline, pooled, remote) must do alike.
 * Each implementation's test file supplies a harness: how to get the entry of a case function
 * and the invoker that runs it.
 */
import { describe, expect, it } from 'vitest';
import { isHostError } from '../../core/errors.ts';
import type { Invoker, ProgressUpdate } from '../../core/invoke/invoker.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';

export interface InvokerHarness {
  invoker(): Invoker;
  /** The registered entry of a function of test/fixtures/conformance/invoker-cases. */
  entry(name: string): FunctionEntry;
}

async function run(h: InvokerHarness, name: string, values: Record<string, unknown> = {}, signal = new AbortController().signal) {
  const progress: ProgressUpdate[] = [];
  const result = await h.invoker().invoke(h.entry(name), values, { signal, onProgress: (p) => progress.push(p) });
  return { result, progress };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!isHostError(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('expected the invocation to fail');
}

export function invokerConformance(label: string, harness: () => InvokerHarness): void {
  describe(`${label} invoker conformance`, () => {
    it('returns a synchronous function’s mesh with its values applied', async () => {
      const { result } = await run(harness(), 'sync_mesh', { size: 2 });
      expect(result.type).toBe('mesh');
      if (result.type !== 'mesh') return;
      expect(Array.from(result.vertices)).toEqual([0, 0, 0, 2, 0, 0, 0, 2, 0]);
      expect(Array.from(result.indices)).toEqual([0, 1, 2]);
    });

    it('returns an async function’s volume with shape, dtype, spacing and value range', async () => {
      const { result } = await run(harness(), 'async_volume', { n: 2 });
      expect(result.type).toBe('volume');
      if (result.type !== 'volume') return;
      expect(result.shape).toEqual([2, 2, 2]);
      expect(result.dtype).toBe('float32');
      expect(result.spacing).toEqual([1, 2, 3]);
      expect(Array.from(result.data as Float32Array)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(result.valueRange).toEqual([0, 7]);
    });

    it('returns point clouds and images', async () => {
      const cloud = (await run(harness(), 'points', { count: 2 })).result;
      expect(cloud.type).toBe('point_cloud');
      if (cloud.type === 'point_cloud') {
        expect(cloud.points).toHaveLength(6);
        expect(Array.from(cloud.colors ?? [])).toEqual([200, 200, 200, 200, 200, 200]);
      }
      const image = (await run(harness(), 'picture')).result;
      expect(image.type).toBe('image');
      if (image.type === 'image') expect(Array.from(image.data as Uint8Array)).toEqual([0, 85, 170, 255]);
    });

    it('delivers progress in order, with a fraction only when it is a finite number', async () => {
      const { progress } = await run(harness(), 'reporting');
      expect(progress.map((p) => [p.text, p.fraction])).toEqual([
        ['half', 0.5],
        ['no fraction', null],
        ['not a number', null],
        ['infinite', null],
      ]);
      for (const p of progress) expect(p.ts).toBeGreaterThan(1_600_000_000);
    });

    it('turns a thrown error into SPC_ERR_FUNCTION_FAILED naming the function and the message', async () => {
      const error = await failure(run(harness(), 'throwing', { message: 'kaput' }));
      expect(error.code).toBe('SPC_ERR_FUNCTION_FAILED');
      expect(error.message).toContain('throwing');
      expect(error.message).toContain('kaput');
    });

    it('refuses a result of the wrong shape with SPC_ERR_RESULT_INVALID', async () => {
      const error = await failure(run(harness(), 'misshapen'));
      expect(error.code).toBe('SPC_ERR_RESULT_INVALID');
      expect(error.message).toContain('misshapen');
    });

    it('stops a running function when its signal aborts, ending as SPC_ERR_JOB_CANCELLED', async () => {
      const h = harness();
      const controller = new AbortController();
      const invocation = h.invoker().invoke(h.entry('endless'), {}, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.text === 'tick 2') controller.abort();
        },
      });
      const error = await failure(invocation);
      expect(error.code).toBe('SPC_ERR_JOB_CANCELLED');
    });

    it('does not start a function whose signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await failure(run(harness(), 'reporting', {}, controller.signal));
      expect(error.code).toBe('SPC_ERR_JOB_CANCELLED');
    });
  });
}
