/**
 * @module warm-editing
 * Readies an encode thread for an edited layer's work before the first edit needs it. A thread
 * that builds its first surface also loads the mesh modules, compiles the encoders'
 * WebAssembly and runs the build's code cold; one that finds its first label entries also
 * takes its kept memory new from the system, slow to touch on first use. Together that made an
 * edit's first changed surface wait seconds where later ones wait a few hundred milliseconds.
 * Here a small surface's levels are built once (a ball of a few thousand voxels, through the
 * same path as a segment's) and the thread's kept memory is taken and touched.
 */
import { keptLabels } from '../edits/kept-labels.ts';
import { runLodsTask } from '../meshes/run-lods-task.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** The radius of the ball built (voxels). */
const BALL_RADIUS = 10;
/** Kept memory taken and touched: room for the boxes of about a hundred changed segments. */
const KEPT_WARM_LABELS = 4 * 2 ** 20;

/** A ball of label 1 in a small uint32 volume, as a labels result. */
function ball(): StoredResult & { type: 'volume' } {
  const n = 2 * BALL_RADIUS + 4;
  const data = new Uint32Array(n ** 3);
  const c = n / 2;
  for (let z = 0; z < n; z++)
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) data[(z * n + y) * n + x] = Math.hypot(z - c, y - c, x - c) < BALL_RADIUS ? 1 : 0;
  return { type: 'volume', data, shape: [n, n, n], dtype: 'uint32', spacing: [1, 1, 1], origin: [0, 0, 0], labels: true } as StoredResult & { type: 'volume' };
}

/** Builds the ball's levels and touches the kept memory; answers how many levels the ball's set has. */
export async function warmEditing(): Promise<number> {
  keptLabels('uint32', KEPT_WARM_LABELS).fill(0);
  const volume = ball();
  const last = volume.shape.map((side) => side - 1);
  const built = await runLodsTask({ op: 'meshLods', source: { kind: 'labels', volume, id: 1, box: [0, 0, 0, ...last], triangles: 0 } });
  return built.lods.levels;
}
