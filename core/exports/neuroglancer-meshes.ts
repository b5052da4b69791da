/**
 * @module neuroglancer-meshes
 * The multi-resolution mesh sources of a room's Neuroglancer state: each labels layer (of a
 * labels volume) reads its segments' surfaces from the host's level sets (`precomputed://<absolute URL>/api/results/
 * {result_id}/meshes`) beside its volume, with its segments shown (the layer's selection, else
 * every id its colours name), and each mesh layer whose result has levels (over
 * `--mesh-lod-triangles`) becomes a segmentation layer showing that source's one segment, `1`.
 * The sources' numbers are the result's physical units, read in the room's frame as the OBJ
 * meshes are (neuroglancer-frame.ts), so the surfaces lie on their voxels.
 */
import type { RoomScene, SceneLayer } from '../wire/scene-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { sourceInFrame, type FrameDimensions } from './neuroglancer-frame.ts';

/** The mesh source of result `resultId`, under `baseUrl`, in `frame`. */
export function meshSource(resultId: string, baseUrl: string, frame: FrameDimensions): Record<string, unknown> {
  return sourceInFrame(`precomputed://${baseUrl}/api/results/${resultId}/meshes`, frame);
}

/** The most segments of one labels layer the state shows at first (their surfaces drawn). */
export const MAX_SHOWN_SEGMENTS = 1000;

/** The segments a labels layer shows: its selection, else the segments its result holds (at most MAX_SHOWN_SEGMENTS). */
export function shownSegments(layer: SceneLayer, held: readonly number[] | undefined): string[] {
  const selected = (layer.labels?.selected ?? []).map(String);
  return selected.length > 0 ? selected : (held ?? []).slice(0, MAX_SHOWN_SEGMENTS).map(String);
}

/** A mesh layer with levels as a segmentation layer of its one surface, in `colour` (#rrggbb). */
export function lodMeshLayer(layer: SceneLayer, baseUrl: string, frame: FrameDimensions, colour: string): Record<string, unknown> {
  const opacity = layer.opacity ?? 1;
  return {
    type: 'segmentation',
    name: layer.id,
    source: meshSource(layer.result!.result_id!, baseUrl, frame),
    visible: layer.visible ?? true,
    segments: ['1'],
    segmentColors: { '1': colour },
    objectAlpha: opacity,
  };
}

/**
 * The scene's labels and mesh layers whose results have levels of detail, by layer id, each
 * with the segments it holds: `segmentsOf` answers them for a result (null: it has no levels).
 */
export async function layersWithLevels(
  scene: RoomScene,
  find: (resultId: string) => Promise<StoredResult | null>,
  segmentsOf: (result: StoredResult) => Promise<number[] | null>,
): Promise<Map<string, number[]>> {
  const layers = scene.layers.filter((layer) => (layer.kind === 'mesh' || layer.kind === 'labels') && layer.result?.result_id !== undefined);
  const held = await Promise.all(
    layers.map(async (layer) => {
      const result = await find(layer.result!.result_id!).catch(() => null);
      return result ? segmentsOf(result).catch(() => null) : null;
    }),
  );
  return new Map(layers.flatMap((layer, i) => (held[i] ? [[layer.id, held[i]] as [string, number[]]] : [])));
}
