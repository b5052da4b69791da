/**
 * @module level-layers
 * Which of a room's layers are drawn from levels of detail, and what shows before their data:
 * a mesh layer or a segmentation whose result has them, as the host says (a layer's result
 * `levels`, a `/data` answer's `Vitrine-Mesh-Levels` header): nothing is asked to find out, so
 * a result without levels costs no request that fails.
 * A large mesh is its surface from the levels, and nothing else is fetched; a segmentation
 * shows its segments' surfaces at once and then, unless its mode is `surface`, its volume
 * coarse first beside them. Budgets: the page's (lod_triangles), and the headset's triangle
 * budget in VR (xr_triangles).
 */
import type { VitrineClient } from '../../core/client/client.ts';
import { isAbortError } from '../../core/client/errors.ts';
import { MESH_LEVELS_HEADER } from '../../core/wire/mesh-level-types.ts';
import type { SceneLayer } from '../../core/wire/scene-types.ts';
import type * as THREE from 'three';
import { labelSurfaces } from '../layers/labels/labels-surfaces.ts';
import { pageTriangleBudget } from '../layers/mesh/lod-budget.ts';
import type { LodSource } from '../layers/mesh/lod-shared.ts';
import { meshFromLevels } from '../layers/render-data.ts';
import type { Stage } from '../stage/stage.ts';
import type { StageContent } from '../stage/stage-content.ts';
import { vrTriangleBudget } from '../xr/triangle-budget.ts';

/** The frame budgets, read from the page's URL as it was opened (the page rewrites its URL once it runs). */
const BUDGET = { page: pageTriangleBudget(), headset: vrTriangleBudget() };

/** The box around `boxes` (each min x, y, z, max x, y, z). */
function boxOf(boxes: number[][]): number[] {
  return [0, 1, 2, 3, 4, 5].map((k) => (k < 3 ? Math.min : Math.max)(...boxes.map((box) => box[k]!)));
}

/** The levels of result `resultId` drawn in `slot`, or null when it has none (or they cannot be read: it is then loaded as before). */
async function levelsOf(client: VitrineClient, slot: string, resultId: string, signal?: AbortSignal): Promise<LodSource | null> {
  const levels = client.meshLevels(resultId);
  try {
    const list = await levels.segments(signal);
    if (!list || list.segments.length === 0) return null;
    // A mesh's list gives no box: its coarsest fragments' do (the stage frames the layer by it).
    for (const segment of list.segments) segment.box ??= boxOf((await levels.segment(segment.id, signal)).coarsest.map((f) => f.box));
    return { slot, levels, list, budget: BUDGET };
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) throw error;
    console.warn(`result ${resultId}: its levels of detail could not be read`, error);
    return null;
  }
}

/** The levels of `layer`'s result, when it is a mesh or a segmentation that has them; else null. */
export function findLevels(client: VitrineClient, layer: SceneLayer, signal: AbortSignal): Promise<LodSource | null> {
  const result = layer.result;
  if (!result?.result_id || !result.levels || (result.type !== 'mesh' && layer.kind !== 'labels')) return Promise.resolve(null);
  return levelsOf(client, layer.id, result.result_id, signal);
}

/** The slot of the page's own subject's surfaces (one set per result, whichever layer shows it). */
const PAGE_SLOT = 'page-subject';

/**
 * The levels of the result a `/data` answer carries (its `X-Result-Id`), for a mesh or a
 * volume (of volumes, only a segmentation has them) whose answer says it has them; null otherwise.
 */
export function levelsOfAnswer(client: VitrineClient, response: Response, type: string, signal?: AbortSignal): Promise<LodSource | null> {
  const id = response.headers.get('x-result-id');
  const has = response.headers.get(MESH_LEVELS_HEADER) !== null && (type === 'mesh' || type === 'volume');
  return id && has ? levelsOf(client, PAGE_SLOT, id, signal) : Promise.resolve(null);
}

/**
 * Shows what `layer` draws from `levels` before any data; true when its data is still to load
 * (a segmentation's volume), false when the levels are all of it.
 */
export function levelsFirst(
  stage: Stage,
  layer: SceneLayer,
  levels: LodSource,
  colour: THREE.Color | null,
  show: (content: StageContent) => void,
): boolean {
  if (layer.result!.type === 'mesh') {
    show(meshFromLevels(stage, levels, colour));
    return false;
  }
  show(labelSurfaces(stage, levels));
  return layer.mode !== 'surface';
}
