/**
 * Federation's port to a host's own result service and job store: a relayed request runs
 * through the host's room cache, a relay's job is kept under the relay's id (its progress
 * recorded here and forwarded), the relay cancelling ends that job, and a departed worker's
 * running jobs and room entries are forgotten.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RoomCache } from '../../core/cache/room-cache.ts';
import { createLocalRuns } from '../../core/federation/local-runs.ts';
import { InvokerSet, type InvokeContext, type Invoker, type ProgressUpdate } from '../../core/invoke/invoker.ts';
import { JobStore } from '../../core/jobs/job-store.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { ResultService } from '../../core/serving/result-service.ts';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

function entryOf(name: string): FunctionEntry {
  return {
    name,
    return_type: 'image',
    schema: { type: 'object', properties: {} },
    parameters: [],
    async: true,
    source: { kind: 'inline', fn: () => null },
    plugin: null,
  };
}

/** Reports one step, then answers a tiny image, or waits until cancelled when `hold` is set. */
class StepInvoker implements Invoker {
  runs = 0;
  constructor(private hold: boolean) {}
  invoke(_entry: FunctionEntry, _values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    this.runs++;
    ctx.onProgress?.({ text: 'step 1', fraction: 0.5, ts: 1 });
    if (!this.hold)
      return Promise.resolve({ type: 'image', width: 1, height: 1, channels: 1, dtype: 'uint8', pixels: new Uint8Array([7]) } as unknown as StoredResult);
    return new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true }));
  }
}

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

function host(invoker: Invoker) {
  const cache = new RoomCache<StoredResult>({ ttlSeconds: 60, sweepIntervalMs: 0 });
  const results = new ResultService({ cache, invokers: new InvokerSet({ inline: invoker }), log: pino({ level: 'silent' }) });
  const jobs = new JobStore({ ttlSeconds: 60, timeoutSeconds: 60, maxMessages: 10, maxFinished: 10, maxRunning: 10 });
  closers.push(() => (jobs.close(), results.abortAll(), cache.close()));
  return { cache, results, jobs, local: createLocalRuns(results, jobs) };
}

describe('LocalRuns', () => {
  it('runs a relayed request through the host’s room cache, forwarding progress', async () => {
    const invoker = new StepInvoker(false);
    const { local, cache } = host(invoker);
    const seen: ProgressUpdate[] = [];
    const request = {
      entry: entryOf('w1:img'),
      values: {},
      roomId: 'lab',
      signal: new AbortController().signal,
      onProgress: (u: ProgressUpdate) => seen.push(u),
    };
    await local.run(request, null);
    await local.run(request, null);
    expect(invoker.runs).toBe(1);
    expect(seen.map((u) => u.text)).toEqual(['step 1']);
    expect(cache.stats().total_entries).toBe(1);
  });

  it('keeps a relay’s job under the relay’s id, its progress recorded here and forwarded', async () => {
    const { local, jobs } = host(new StepInvoker(false));
    expect(local.jobIdFree(ID)).toBe(true);
    const seen: string[] = [];
    const request = {
      entry: entryOf('w1:img'),
      values: {},
      roomId: 'lab',
      signal: new AbortController().signal,
      onProgress: (u: ProgressUpdate) => seen.push(u.text),
    };
    const result = await local.run(request, { id: ID, meta: { specimenId: null, functionName: 'w1:img', roomId: 'lab' } });
    expect(result.type).toBe('image');
    expect(seen).toEqual(['step 1']);
    expect(local.jobIdFree(ID)).toBe(false);
    expect(jobs.get(ID)?.status).toBe('done');
    expect(jobs.get(ID)?.messages.map((m) => m.text)).toEqual(['step 1']);
  });

  it('ends the kept job cancelled when the relay cancels', async () => {
    const { local, jobs } = host(new StepInvoker(true));
    const relay = new AbortController();
    const run = local.run(
      { entry: entryOf('w1:img'), values: {}, roomId: 'lab', signal: relay.signal },
      { id: ID, meta: { specimenId: null, functionName: 'w1:img', roomId: 'lab' } },
    );
    relay.abort();
    await expect(run).rejects.toMatchObject({ code: 'SPC_ERR_JOB_CANCELLED' });
    expect(jobs.get(ID)).toMatchObject({ status: 'error', error: 'cancelled' });
  });

  it('forgets a departed worker: its running jobs end with the reason, its room entries go, others stay', async () => {
    const { local, jobs, cache } = host(new StepInvoker(false));
    const signal = new AbortController().signal;
    await local.run({ entry: entryOf('w1:img'), values: {}, roomId: 'a', signal }, null);
    await local.run({ entry: entryOf('w2:img'), values: {}, roomId: 'b', signal }, null);
    const held = host(new StepInvoker(true));
    const running = held.local.run(
      { entry: entryOf('w1:img'), values: {}, roomId: 'c', signal },
      { id: ID, meta: { specimenId: null, functionName: 'w1:img', roomId: 'c' } },
    );
    running.catch(() => {});
    expect(held.local.forget('w1:', 'worker w1 disconnected')).toBe(1);
    expect(held.jobs.get(ID)).toMatchObject({ status: 'error', error: 'worker w1 disconnected' });
    expect(local.forget('w1:', 'worker w1 disconnected')).toBe(0);
    expect(cache.stats().entries.map((e) => e.room_id)).toEqual(['b']);
    expect(jobs.get(ID)).toBeUndefined();
  });
});
