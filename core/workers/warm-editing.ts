/**
 * @module warm-editing
 * Readies an encode thread for an edited layer's work before the first edit needs it. A thread
 * that builds its first surface also loads the mesh modules, compiles the encoders'
 * WebAssembly and runs the build's code cold; one that finds its first label entries also
 * takes its kept memory new from the system, slow to touch on first use. Together that made an
 * edit's first changed surface wait seconds where later ones wait a few hundred milliseconds.
 * Here a ball of a few thousand voxels goes once through the path of a changed segment: read
 * from what a layer's turn takes, its label entry found, its levels built; and the thread's
 * kept memory is taken and touched.
 */
import { keptLabels } from '../edits/kept-labels.ts';
import { loadOnce } from '../loading/load-once.ts';
import type { VersionRegionTask } from '../edits/version-region.ts';
import { voxelTransform } from '../meshes/lod-sources.ts';
import { runLodsTask } from '../meshes/run-lods-task.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { readTaken, regionEntries } from './taken-boxes.ts';

/** The radius of the ball built (voxels). */
const BALL_RADIUS = 10;
/** The side of the ball's volume, and of its chunks. */
const SIDE = 2 * BALL_RADIUS + 4;
const CHUNK = 8;
/** Kept memory taken and touched: room for the boxes of about a hundred changed segments. */
const KEPT_WARM_LABELS = 4 * 2 ** 20;

/**
 * A ball of label 1 in a small uint32 volume as an edited version's layer took it: its middle
 * chunk an edit's own copy, and one later edit to write back, so every step of a real read runs.
 */
function ballTaken(): VersionRegionTask {
  const base = new Uint32Array(SIDE ** 3);
  const c = SIDE / 2;
  for (let z = 0; z < SIDE; z++)
    for (let y = 0; y < SIDE; y++)
      for (let x = 0; x < SIDE; x++) base[(z * SIDE + y) * SIDE + x] = Math.hypot(z - c, y - c, x - c) < BALL_RADIUS ? 1 : 0;
  // Chunk 13 is the middle of the 3 x 3 x 3, wholly inside the ball.
  const chunks = new Map([[13, new Uint32Array(CHUNK ** 3).fill(1)]]);
  const later = [{ index: new Float64Array([(c * SIDE + c) * SIDE + c]), before: new Uint32Array([1]) }];
  const volume = { base, shape: [SIDE, SIDE, SIDE] as const, dtype: 'uint32' as const, chunk: CHUNK, chunks };
  return { op: 'labelsRegion', volume, later, boxes: [{ from: [0, 0, 0], to: [SIDE, SIDE, SIDE] }] };
}

/**
 * Finds the ball's entry and builds its levels as a changed segment's are, once a thread: every
 * layer loaded for editing sends the warm-up to each thread, and a thread readied before answers
 * at once. Answers how many levels the ball's set has.
 */
export const warmEditing = loadOnce(async (): Promise<number> => {
  keptLabels('uint32', KEPT_WARM_LABELS).fill(0);
  const task = ballTaken();
  regionEntries({ op: 'labelsEntries', region: task, parts: [{ id: 1, boxes: 1 }] });
  const transform = voxelTransform({ type: 'volume', shape: [SIDE, SIDE, SIDE], data: task.volume.base } as StoredResult & { type: 'volume' });
  const region = readTaken(task, 1);
  const box = [0, 0, 0, SIDE - 1, SIDE - 1, SIDE - 1];
  const built = await runLodsTask({ op: 'meshLods', source: { kind: 'region', region, id: 1, box, triangles: 0, transform } });
  return built.lods.levels;
});
