/**
 * @module pool
 * The two worker-thread pools: `compute` runs plugin functions (as many threads as the room
 * scheduler hands out: one per core by default, plus its short lane); `encode` (`encodeThreads`,
 * by default one; a host has one more kept for variants of small results) turns stored results
 * into JSON, shapes and packs delivery variants and parses files, so a /result request never
 * waits behind long-running jobs and never blocks the event loop.
 */
import Tinypool from 'tinypool';
import { workerScriptPath } from './worker-script.ts';

export interface Pools {
  compute: Tinypool;
  encode: Tinypool;
  destroy(): Promise<void>;
}

/**
 * `computeThreads`: the most compute threads at once; `warmComputeThreads` of them are started
 * at once and kept (the short lane must not wait for a thread to start). @defaultValue 1
 */
export async function createPools(options: { computeThreads: number; warmComputeThreads?: number; encodeThreads?: number }): Promise<Pools> {
  const filename = await workerScriptPath();
  // No Atomics.wait between tasks: a thread blocked in it runs no timers, immediates or port
  // closes while idle, so it would never collect the shared buffers it handed over, nor
  // finish closing a run's MessagePort (each computed miss would leave its memory behind).
  // A small young generation per thread: plugin arrays live outside the JS heap, and each
  // thread's nursery otherwise grows to tens of MiB that the process keeps for good.
  const common = {
    filename,
    isolateWorkers: false,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
    useAtomics: false,
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  } as const;
  const warm = Math.max(1, Math.min(options.warmComputeThreads ?? 1, options.computeThreads));
  const compute = new Tinypool({ ...common, minThreads: warm, maxThreads: options.computeThreads, name: 'invoke' });
  const encode = new Tinypool({ ...common, minThreads: 0, maxThreads: options.encodeThreads ?? 1, name: 'json' });
  // A thread that dies fails its own task; the pool replaces it and must not take the host down.
  compute.on('error', () => {});
  encode.on('error', () => {});
  return {
    compute,
    encode,
    async destroy() {
      await Promise.allSettled([compute.destroy(), encode.destroy()]);
    },
  };
}
