/**
 * A level set whose build failed is kept as failed: the next ask of the segment answers the
 * same error at once, without building again (a build that ran out of memory would run out
 * again, at the same cost, for every ask), while another result, or the same surface as a new
 * result, is built as usual. The encode thread is stood in for by a runner that fails the way
 * the probe's 60-million-triangle build did (wasm out of memory: not something a test can
 * afford to make happen), and otherwise runs the real build inline.
 */
import { describe, expect, it } from 'vitest';
import { ResultBudget } from '../../core/cache/result-budget.ts';
import { isHostError } from '../../core/errors.ts';
import { MeshLods } from '../../core/meshes/mesh-lods.ts';
import { MESH_SEGMENT, type LodSubject } from '../../core/meshes/lod-subjects.ts';
import { IDENTITY } from '../../core/meshes/lod-sources.ts';
import { runLodsTask, runAssembleTask } from '../../core/meshes/run-lods-task.ts';
import type { MeshLodsTask } from '../../core/meshes/lod-tasks.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';

type StoredMesh = Extract<StoredResult, { type: 'mesh' }>;

/** A closed box of `n` × `n` quads a face (12 n² triangles), as a fresh result each call. */
function boxMesh(n: number): StoredMesh {
  const vertices: number[] = [];
  const indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [0, 1]) {
      const base = vertices.length / 3;
      for (let i = 0; i <= n; i++)
        for (let j = 0; j <= n; j++) {
          const p = [0, 0, 0];
          p[axis] = side * n;
          p[(axis + 1) % 3] = i;
          p[(axis + 2) % 3] = j;
          vertices.push(...p);
        }
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const a = base + i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
          if (side === 1) indices.push(a, c, b, b, c, d);
          else indices.push(a, b, c, b, d, c);
        }
    }
  }
  return { type: 'mesh', vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices) };
}

function lodsWith(build: (task: MeshLodsTask) => ReturnType<typeof runLodsTask>) {
  const warnings: string[] = [];
  const meshes = new MeshLods({
    run: { build, assemble: runAssembleTask },
    turns: { run: (_client, work) => work() },
    budget: new ResultBudget<StoredResult>(2 ** 30, () => 1024),
    labelIndex: () => Promise.reject(new Error('no labels here')),
    lodTriangles: 100,
    kept: null,
    idOf: () => Promise.resolve('r'),
    warn: (line) => warnings.push(line),
  });
  return { meshes, warnings };
}

function subjectOf(result: StoredMesh): LodSubject {
  return { result, segments: Uint32Array.of(MESH_SEGMENT), transform: IDENTITY, index: null };
}

describe('a failed level-set build', () => {
  it('is answered again at once, with the same error, without building again', async () => {
    let builds = 0;
    const { meshes, warnings } = lodsWith((task) => {
      builds++;
      return builds === 1 ? Promise.reject(new WebAssembly.RuntimeError('memory access out of bounds')) : runLodsTask(task);
    });
    const failing = subjectOf(boxMesh(12));
    const first = await meshes.segment(failing, MESH_SEGMENT).catch((error: unknown) => error);
    expect(isHostError(first)).toBe(true);
    expect(first).toMatchObject({ code: 'SPC_ERR_MESH_LEVELS_FAILED', statusCode: 500 });
    expect((first as Error).message).toMatch(/segment 1 .*RuntimeError: memory access out of bounds/);
    expect(warnings).toHaveLength(1);

    const again = await meshes.segment(failing, MESH_SEGMENT).catch((error: unknown) => error);
    expect(again).toBe(first);
    expect(builds).toBe(1);

    // The same surface as another result (a result that changed) is built afresh, and builds.
    const lods = await meshes.segment(subjectOf(boxMesh(12)), MESH_SEGMENT);
    expect(builds).toBe(2);
    expect(lods.triangles[0]).toBeGreaterThanOrEqual(12 * 12 * 12);
    // The failed one stays failed.
    await expect(meshes.segment(failing, MESH_SEGMENT)).rejects.toBe(first);
    expect(builds).toBe(2);
  });

  it('shares one failure among askers who came while it was being built', async () => {
    let builds = 0;
    let fail: (error: Error) => void = () => {};
    const { meshes } = lodsWith(() => {
      builds++;
      return new Promise((_resolve, reject) => (fail = reject));
    });
    const subject = subjectOf(boxMesh(4));
    const asks = [meshes.segment(subject, MESH_SEGMENT), meshes.segment(subject, MESH_SEGMENT)].map((ask) => ask.catch((error: unknown) => error));
    fail(new Error('out of memory'));
    const [a, b] = await Promise.all(asks);
    expect(a).toBe(b);
    expect(a).toMatchObject({ code: 'SPC_ERR_MESH_LEVELS_FAILED' });
    expect(builds).toBe(1);
  });
});
