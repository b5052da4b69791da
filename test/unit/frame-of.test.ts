/**
 * A result's frame for a blob store: its hash is the result's id, worked out once; a result
 * whose id is known already (hashed off the event loop when large) is not hashed again.
 */
import { describe, expect, it } from 'vitest';
import { frameOf } from '../../core/blobs/blob-store.ts';
import { computeResultId, knownResultId, rememberResultId } from '../../core/results/result-id.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';

const mesh = (): StoredResult =>
  ({ type: 'mesh', vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) }) as StoredResult;

describe('frameOf', () => {
  it('hashes a result once and remembers the hash as its id', () => {
    const result = mesh();
    const { hash } = frameOf(result);
    expect(hash).toBe(computeResultId(mesh()));
    expect(knownResultId(result)).toBe(hash);
  });

  it('takes a known id as it is, without hashing the bytes again', () => {
    const result = mesh();
    rememberResultId(result, 'e'.repeat(64));
    expect(frameOf(result).hash).toBe('e'.repeat(64));
  });
});
