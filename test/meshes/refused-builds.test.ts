/**
 * A level set whose build would hold more memory than the host's budget leaves it (half of
 * `--cache-max-bytes`) is refused before anything is made or sent to a thread, from its
 * triangles as the label index counts them (its faces: surface nets make two triangles a face,
 * so the count is exact), and the refusal is kept: the next ask answers it at once.
 */
import { describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { MeshLods } from '../../core/meshes/mesh-lods.ts';
import type { LodSubject } from '../../core/meshes/lod-subjects.ts';
import { labelSource, voxelTransform } from '../../core/meshes/lod-sources.ts';
import { runAssembleTask, runLodsTask } from '../../core/meshes/run-lods-task.ts';
import { buildBytes } from '../../core/meshes/build-bytes.ts';
import { buildLabelIndex } from '../../core/labels/label-index.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';

const N = 40;

/** A wavy ball (label 4) touching the volume's edge, and a few loose voxels of label 9. */
function volume(): Extract<StoredResult, { type: 'volume' }> {
  const data = new Uint8Array(N ** 3);
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) {
        if (Math.hypot(x - 20, y - 20, z - 22) + 2 * Math.sin(x / 3) < 19) data[(z * N + y) * N + x] = 4;
        if ((x * 7 + y * 13 + z * 3) % 97 === 0) data[(z * N + y) * N + x] = 9;
      }
  return { type: 'volume', data, shape: [N, N, N], dtype: 'uint8', labels: true } as Extract<StoredResult, { type: 'volume' }>;
}

describe('a level set too large for the memory budget', () => {
  it('has each segment surface\'s triangles counted exactly by the label index', () => {
    const labels = volume();
    const index = buildLabelIndex(labels.data as Uint8Array, labels.shape);
    expect(Array.from(index.ids)).toEqual([4, 9]);
    for (const [k, id] of index.ids.entries()) {
      const made = labelSource(labels, id, index.boxes.subarray(k * 6, k * 6 + 6)).indices.length / 3;
      expect(made).toBeGreaterThan(0);
      expect(2 * index.faces[k]!).toBe(made);
    }
    // Ids too large to count in arrays by id are counted alike.
    const wide = Uint32Array.from(labels.data as Uint8Array, (v) => (v === 0 ? 0 : v + 100_000));
    expect(Array.from(buildLabelIndex(wide, labels.shape).faces)).toEqual(Array.from(index.faces));
  });

  it('is refused before any thread is asked, and the refusal answered again at once', async () => {
    const labels = volume();
    const index = buildLabelIndex(labels.data as Uint8Array, labels.shape);
    const k = index.ids.indexOf(4);
    const triangles = labelSource(labels, 4, index.boxes.subarray(k * 6, k * 6 + 6)).indices.length / 3;
    let runs = 0;
    // A budget whose half is just under what this segment's build would hold.
    const budget = new ResultBudget<StoredResult>(2 * buildBytes(triangles) - 2, () => 1024);
    const meshes = new MeshLods({
      run: { build: (task) => (runs++, runLodsTask(task)), assemble: runAssembleTask },
      turns: { run: (_client, work) => work() },
      budget,
      labelIndex: () => Promise.resolve(index),
      lodTriangles: 100,
      kept: null,
      idOf: () => Promise.resolve('r'),
      warn: () => {},
    });
    const subject: LodSubject = { result: labels, segments: index.ids, transform: voxelTransform(labels), index };
    const first = await meshes.segment(subject, 4).catch((error: unknown) => error);
    expect(first).toMatchObject({ code: 'SPC_ERR_MESH_LEVELS_TOO_LARGE', statusCode: 413 });
    expect((first as Error).message).toContain(`${triangles} triangles`);
    await expect(meshes.segment(subject, 4)).rejects.toBe(first);
    expect(runs).toBe(0);
    // A smaller segment of the same volume fits, and is built.
    const small = await meshes.segment(subject, 9);
    expect(small.triangles[0]).toBeGreaterThan(0);
    expect(runs).toBe(1);
  });
});
