/**
 * `MeshLods.levelMesh` tells a result without levels (null: the caller shapes the result itself)
 * from a fault on the way to its levels (the label index failing): the fault is thrown as it
 * came, so a delivery answers it as a fault rather than as a result that has no levels.
 */
import { describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { FairTurns } from '../../core/delivery/fair-turns.ts';
import { MeshLods, type MeshLodsDeps } from '../../core/meshes/mesh-lods.ts';
import { buildLabelIndex } from '../../core/labels/label-index.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { resultByteLength } from '../../core/results/to-json-result.ts';

const labels = { type: 'volume', shape: [4, 4, 4], dtype: 'uint8', data: new Uint8Array(64).fill(3, 20, 30), labels: true } as unknown as StoredResult;
const smallMesh = { type: 'mesh', vertices: new Float32Array(9), indices: Uint32Array.of(0, 1, 2) } as StoredResult;

function meshLods(labelIndex: MeshLodsDeps['labelIndex']): MeshLods {
  const nothingBuilt = () => Promise.reject(new Error('no build is asked of in these cases'));
  return new MeshLods({
    run: { build: nothingBuilt, assemble: nothingBuilt } as unknown as MeshLodsDeps['run'],
    turns: new FairTurns(1),
    budget: new ResultBudget<StoredResult>(1 << 20, resultByteLength),
    labelIndex,
    lodTriangles: 1000,
    kept: null,
    idOf: async () => 'id',
    warn: () => {},
  });
}

describe('levelMesh: no levels, or a fault', () => {
  it('answers null for a result that has no levels, and for a labels volume asked for no segment', async () => {
    const lods = meshLods(async (volume) => buildLabelIndex(volume.data as Uint8Array, volume.shape));
    expect(await lods.levelMesh(smallMesh, null, 100)).toBeNull();
    expect(await lods.levelMesh(labels, null, 100)).toBeNull();
  });

  it('throws the fault of the label index instead of saying the result has no levels', async () => {
    const fault = new Error('encode thread ended');
    const lods = meshLods(() => Promise.reject(fault));
    await expect(lods.levelMesh(labels, 3, 100)).rejects.toBe(fault);
    await expect(lods.levelMesh(labels, null, 100)).rejects.toBe(fault);
  });
});
