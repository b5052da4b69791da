/**
 * Lookups of blob ids a host does not hold (core/blobs/blob-lookups.ts): one store lookup per
 * id however many ask, a bound per client and per host past which the answer is a 503 with
 * Retry-After at once, and misses remembered for a while.
 */
import { describe, expect, it } from 'vitest';
import { BlobLookups, MAX_CLIENT_LOOKUPS, MAX_LOOKUPS, MISS_MEMORY_MS } from '../../core/blobs/blob-lookups.ts';
import { isHostError } from '../../core/errors.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';

/** A store whose lookups the test answers: `asked` lists each id sent to it. */
function store() {
  const asked: string[] = [];
  const waiting = new Map<string, (result: StoredResult | null) => void>();
  const find = (hash: string) => {
    asked.push(hash);
    return new Promise<StoredResult | null>((resolve) => waiting.set(hash, resolve));
  };
  const answer = (hash: string, result: StoredResult | null) => waiting.get(hash)!(result);
  return { asked, find, answer };
}

function busy(call: () => unknown): { status: number; retryAfter: string | undefined } {
  try {
    call();
  } catch (error) {
    if (isHostError(error)) return { status: error.statusCode, retryAfter: error.headers['retry-after'] };
    throw error;
  }
  throw new Error('the lookup was not refused');
}

describe('BlobLookups', () => {
  it('asks the store once for an id however many ask at once', async () => {
    const s = store();
    const lookups = new BlobLookups(s.find);
    const a = lookups.find('h1', 'c1');
    const b = lookups.find('h1', 'c2');
    expect(s.asked).toEqual(['h1']);
    const result = { type: 'mesh' } as unknown as StoredResult;
    s.answer('h1', result);
    expect(await a).toBe(result);
    expect(await b).toBe(result);
    expect(lookups.running).toBe(0);
  });

  it(`refuses a client past ${MAX_CLIENT_LOOKUPS} lookups at once with 503 and Retry-After, others still pass`, () => {
    const s = store();
    const lookups = new BlobLookups(s.find);
    for (let i = 0; i < MAX_CLIENT_LOOKUPS; i++) void lookups.find(`a${i}`, 'greedy');
    expect(busy(() => lookups.find('one-more', 'greedy'))).toEqual({ status: 503, retryAfter: '1' });
    void lookups.find('b0', 'other');
    expect(s.asked).toHaveLength(MAX_CLIENT_LOOKUPS + 1);
  });

  it(`refuses everyone past ${MAX_LOOKUPS} lookups at once on the host, and takes them again once one ends`, async () => {
    const s = store();
    const lookups = new BlobLookups(s.find);
    for (let i = 0; i < MAX_LOOKUPS; i++) void lookups.find(`h${i}`, `client${i}`);
    expect(busy(() => lookups.find('late', 'newcomer')).status).toBe(503);
    s.answer('h0', null);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lookups.running).toBe(MAX_LOOKUPS - 1);
    void lookups.find('late', 'newcomer');
    expect(s.asked).toContain('late');
  });

  it(`answers an id found missing as missing for ${MISS_MEMORY_MS / 1000} s without asking the store`, async () => {
    const s = store();
    let now = 0;
    const lookups = new BlobLookups(s.find, () => now);
    const first = lookups.find('gone', 'c');
    s.answer('gone', null);
    expect(await first).toBeNull();
    now = MISS_MEMORY_MS - 1;
    expect(await lookups.find('gone', 'c')).toBeNull();
    expect(s.asked).toEqual(['gone']);
    now = MISS_MEMORY_MS;
    void lookups.find('gone', 'c');
    expect(s.asked).toEqual(['gone', 'gone']);
  });

  it('forgets a miss once the blob is stored here', async () => {
    const s = store();
    const lookups = new BlobLookups(s.find, () => 0);
    const first = lookups.find('late', 'c');
    s.answer('late', null);
    await first;
    lookups.stored('late');
    void lookups.find('late', 'c');
    expect(s.asked).toEqual(['late', 'late']);
  });
});
