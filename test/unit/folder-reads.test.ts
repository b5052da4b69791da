/**
 * @module folder-reads.test
 * A lone host reads a result back from its data folder once, not once per request: concurrent
 * asks share one read, the copy is held in the result budget (and read again once the budget
 * dropped it or its time passed), and an id the folder lacks is held by nothing.
 */
import { describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { FolderReads } from '../../core/blobs/folder-reads.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { resultByteLength } from '../../core/results/to-json-result.ts';

const volume = (bytes: number): StoredResult => ({ type: 'volume', data: new Uint8Array(bytes), shape: [bytes], dtype: 'uint8' });

/** A folder of `files` that counts its reads. */
function folder(files: Record<string, StoredResult>) {
  const reads: string[] = [];
  return { reads, read: async (id: string) => (reads.push(id), files[id] ?? null) };
}

describe('FolderReads', () => {
  it('reads an id once for concurrent and later asks, and holds the copy in the budget', async () => {
    const a = volume(100);
    const disk = folder({ a });
    const budget = new ResultBudget<StoredResult>(1000, resultByteLength);
    const reads = new FolderReads(disk.read, budget);
    const found = await Promise.all([reads.find('a'), reads.find('a'), reads.find('a')]);
    expect(found.every((r) => r === a)).toBe(true);
    expect(await reads.find('a')).toBe(a);
    expect(disk.reads).toEqual(['a']);
    expect(budget.totalBytes).toBe(100);
    expect(await reads.find('missing')).toBeNull();
    expect(await reads.find('missing')).toBeNull();
    expect(disk.reads).toEqual(['a', 'missing', 'missing']);
    reads.close();
    expect(budget.totalBytes).toBe(0);
  });

  it('reads the folder again once the budget dropped the copy, or its time passed', async () => {
    const [a, b] = [volume(600), volume(600)];
    const disk = folder({ a, b });
    const budget = new ResultBudget<StoredResult>(1000, resultByteLength);
    const reads = new FolderReads(disk.read, budget);
    await reads.find('a');
    // b does not fit beside a: the budget drops a, the least recently used.
    await reads.find('b');
    expect(budget.totalBytes).toBe(600);
    await reads.find('a');
    expect(disk.reads).toEqual(['a', 'b', 'a']);
    reads.close();

    const brief = new FolderReads(disk.read, budget, 0);
    await brief.find('a');
    await brief.find('a');
    expect(disk.reads).toEqual(['a', 'b', 'a', 'a', 'a']);
    brief.close();
  });
});
