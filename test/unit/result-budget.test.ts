import { describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { RoomCache } from '../../core/cache/room-cache.ts';
import { JobStore } from '../../core/jobs/job-store.ts';
import { resultOf } from '../../core/jobs/job.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { resultByteLength } from '../../core/results/to-json-result.ts';
import { waitFor } from '../helpers/wait-for.ts';

type Blob = { bytes: number; name: string };
const blob = (name: string, bytes: number): Blob => ({ name, bytes });

function volume(bytes: number): StoredResult {
  return { type: 'volume', data: new Uint8Array(bytes), shape: [bytes], dtype: 'uint8' };
}

describe('ResultBudget', () => {
  it('holds dependents in the same budget and drops them with their source, released or evicted', () => {
    const budget = new ResultBudget<Blob>(100, (b) => b.bytes);
    const dropped: string[] = [];
    const [a, b] = [blob('a', 30), blob('b', 30)];
    budget.hold(a, 'room:1', () => dropped.push('a'));
    budget.holdDependent({ name: 'a.gz' }, 10, a, 'variant:gz', () => dropped.push('a.gz'));
    budget.holdDependent({ name: 'a.br' }, 8, a, 'variant:br', () => dropped.push('a.br'));
    expect(budget.totalBytes).toBe(48);
    budget.release(a, 'room:1');
    expect(dropped).toEqual(['a.gz', 'a.br']);
    expect(budget.totalBytes).toBe(0);
    budget.hold(b, 'room:2', () => dropped.push('b'));
    const variant = { name: 'b.gz' };
    budget.holdDependent(variant, 20, b, 'variant:gz', () => dropped.push('b.gz'));
    budget.touch(variant);
    budget.hold(blob('c', 60), 'room:3', () => dropped.push('c'));
    // b was least recently used: it goes, and its variant with it although used later.
    expect(dropped).toEqual(['a.gz', 'a.br', 'b', 'b.gz']);
    expect(budget.totalBytes).toBe(60);
  });

  it('counts a value once however many hold it, and frees it with its last holder', () => {
    const budget = new ResultBudget<Blob>(100, (b) => b.bytes);
    const a = blob('a', 40);
    budget.hold(a, 'room:x', () => {});
    budget.hold(a, 'job:1', () => {});
    expect(budget.totalBytes).toBe(40);
    budget.release(a, 'room:x');
    expect(budget.totalBytes).toBe(40);
    budget.release(a, 'job:1');
    expect(budget.totalBytes).toBe(0);
    expect(budget.size).toBe(0);
  });

  it('evicts the least recently used first, telling every holder', () => {
    const budget = new ResultBudget<Blob>(100, (b) => b.bytes);
    const evicted: string[] = [];
    const [a, b, c] = [blob('a', 40), blob('b', 40), blob('c', 40)];
    budget.hold(a, 'room:1', () => evicted.push('a/room'));
    budget.hold(a, 'job:1', () => evicted.push('a/job'));
    budget.hold(b, 'room:2', () => evicted.push('b/room'));
    budget.touch(a); // b is now the least recently used
    budget.hold(c, 'room:3', () => evicted.push('c/room'));
    expect(evicted).toEqual(['b/room']);
    expect(budget.totalBytes).toBe(80);
    budget.hold(blob('d', 50), 'room:4', () => evicted.push('d/room'));
    expect(evicted).toEqual(['b/room', 'a/room', 'a/job']);
    expect(budget.totalBytes).toBe(90);
  });

  it('makes room for bytes about to be read before they are, passing by pins and what holds nothing', () => {
    const budget = new ResultBudget<Blob>(100, (b) => b.bytes);
    const evicted: string[] = [];
    budget.pin(blob('pinned', 20), 'snapshot:1');
    budget.holdDependent({ name: 'file' }, 0, { name: 'file' }, 'file:x', () => evicted.push('file'));
    for (const name of ['a', 'b', 'c']) budget.hold(blob(name, 25), `room:${name}`, () => evicted.push(name));
    budget.makeRoom(40);
    expect(evicted).toEqual(['a', 'b']);
    expect(budget.totalBytes).toBe(45);
    // More than the whole budget is not kept anyway: nothing goes for it.
    budget.makeRoom(101);
    expect(evicted).toEqual(['a', 'b']);
  });

  it('does not keep a value larger than the whole budget', () => {
    const budget = new ResultBudget<Blob>(100, (b) => b.bytes);
    let dropped = false;
    budget.hold(blob('huge', 101), 'room:1', () => (dropped = true));
    expect(dropped).toBe(true);
    expect(budget.totalBytes).toBe(0);
  });
});

describe('the byte budget across the room cache and jobs', () => {
  it('drops the least recently used room entry when a new result does not fit', () => {
    const budget = new ResultBudget<StoredResult>(3000, resultByteLength);
    const cache = new RoomCache<StoredResult>({ ttlSeconds: 300, sweepIntervalMs: 0, budget });
    cache.set('r1', 'k', 'f', [], volume(1000));
    cache.set('r2', 'k', 'f', [], volume(1000));
    cache.set('r3', 'k', 'f', [], volume(1000));
    expect(cache.get('r1', 'k')).toBeDefined(); // r2 is now the oldest use
    cache.set('r4', 'k', 'f', [], volume(1000));
    expect(cache.get('r2', 'k')).toBeUndefined();
    expect(cache.size).toBe(3);
    expect(cache.stats()).toMatchObject({ total_entries: 3, total_bytes: 3000, max_bytes: 3000 });
    cache.clear();
    expect(budget.totalBytes).toBe(0);
  });

  it('a replaced room entry gives its bytes back', () => {
    const budget = new ResultBudget<StoredResult>(10_000, resultByteLength);
    const cache = new RoomCache<StoredResult>({ ttlSeconds: 300, sweepIntervalMs: 0, budget });
    cache.set('r', 'k1', 'f', [], volume(1000));
    cache.set('r', 'k2', 'f', [], volume(2000));
    expect(budget.totalBytes).toBe(2000);
  });

  it('finished jobs count against the same budget; an evicted job result answers 410', async () => {
    const budget = new ResultBudget<StoredResult>(2500, resultByteLength);
    const cache = new RoomCache<StoredResult>({ ttlSeconds: 300, sweepIntervalMs: 0, budget });
    const jobs = new JobStore({ ttlSeconds: 300, timeoutSeconds: 60, maxMessages: 10, maxFinished: 100, maxRunning: 10, budget });
    const meta = { specimenId: null, functionName: 'f', roomId: 'r' };
    const shared = volume(1000);
    cache.set('r', 'k', 'f', [], shared);
    const first = jobs.createDone(meta, shared); // the room's own result: counted once
    expect(budget.totalBytes).toBe(1000);
    const second = jobs.start(meta, async () => volume(1000));
    const ended = (job: { status: string }) => waitFor(() => (job.status === 'running' ? undefined : job.status), 'the job to end');
    expect(await ended(second)).toBe('done');
    expect(budget.totalBytes).toBe(2000);
    const third = jobs.start(meta, async () => volume(1000));
    expect(await ended(third)).toBe('done');
    // The shared result was the least recently used: the room entry and the first job lose it.
    expect(cache.get('r', 'k')).toBeUndefined();
    expect(() => resultOf(first, first.id)).toThrow(expect.objectContaining({ code: 'SPC_ERR_JOB_RESULT_EVICTED', statusCode: 410 }));
    expect(resultOf(second, second.id).type).toBe('volume');
    jobs.close();
    expect(budget.totalBytes).toBe(0);
  });

  it('refuses a job past maxRunning with 503 and Retry-After', () => {
    const jobs = new JobStore({ ttlSeconds: 300, timeoutSeconds: 60, maxMessages: 10, maxFinished: 100, maxRunning: 2 });
    const meta = { specimenId: null, functionName: 'f', roomId: 'r' };
    const forever = () => new Promise<StoredResult>(() => {});
    jobs.start(meta, forever);
    jobs.start(meta, forever);
    expect(() => jobs.start(meta, forever)).toThrow(
      expect.objectContaining({ code: 'SPC_ERR_TOO_MANY_JOBS', statusCode: 503, headers: { 'retry-after': '5' } }),
    );
    jobs.close();
  });
});
