/**
 * Which earlier result a segment's level set comes from along a chain of edited versions: a
 * segment no edit changed goes back to the first result, one changed goes back to the version
 * that last changed it, and a result never said to be derived is its own origin.
 */
import { describe, expect, it } from 'vitest';
import { LevelSetLineage } from '../../core/meshes/level-set-lineage.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';

const volume = (): StoredResult => ({ type: 'volume', shape: [2], dtype: 'uint8', data: new Uint8Array(2) });

describe('level-set lineage', () => {
  const ids = new Map<StoredResult, string>();
  const lineage = new LevelSetLineage(async (result) => ids.get(result)!);
  const [base, v1, v2, other] = [volume(), volume(), volume(), volume()];
  ids.set(base, 'base').set(v1, 'v1').set(v2, 'v2').set(other, 'other');
  lineage.derived(v1, base, [5]);
  lineage.derived(v2, v1, [7, 9]);

  it('sends a segment back to the version that last changed it', async () => {
    const untouched = lineage.originOf(v2, 3);
    expect(await untouched.id).toBe('base');
    expect(untouched.sharing).toEqual([v1, base]);
    const changedEarlier = lineage.originOf(v2, 5);
    expect(await changedEarlier.id).toBe('v1');
    expect(changedEarlier.sharing).toEqual([v1]);
  });

  it('answers null for a set that is the result’s own', () => {
    expect(lineage.originOf(v2, 7)).toEqual({ id: null, sharing: [] });
    expect(lineage.originOf(other, 3)).toEqual({ id: null, sharing: [] });
    expect(lineage.originOf(base, 3)).toEqual({ id: null, sharing: [] });
  });

  it('keeps the first lineage said of a result', async () => {
    lineage.derived(v2, other, []);
    expect(await lineage.originOf(v2, 3).id).toBe('base');
  });
});
