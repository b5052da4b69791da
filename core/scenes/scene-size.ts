/**
 * @module scene-size
 * The bytes a scene takes as JSON, kept under MAX_SCENE_BYTES whatever its layers hold: each
 * layer is bounded on its own (MAX_LAYER_BYTES), and the scene as a whole is counted with the
 * largest result the host can add to each layer, which depends on the room's id (it is part of
 * a layer's `data_url`). Also where a layer's `data_url` is made, so the two never disagree.
 */
import type { LayerResult, RoomScene, SceneLayer } from '../wire/scene-types.ts';
import { createHostError } from '../errors.ts';
import { bad } from './check-display.ts';
import { MAX_LAYER_BYTES, MAX_SCENE_BYTES } from './scene-limits.ts';

/** Where a computed layer's result is read (computed again when its cache slot let it go). */
export function layerDataUrl(roomId: string, layerId: string): string {
  return `/api/rooms/${encodeURIComponent(roomId)}/layers/${encodeURIComponent(layerId)}/data`;
}

/** Where a static specimen's file is read (or, given `segment`, that label's surface made of it). */
export function specimenDataUrl(specimenId: string, segment?: number | 'all'): string {
  const url = `/api/specimens/${encodeURIComponent(specimenId)}/data`;
  return segment === undefined ? url : `${url}?segment=${segment}`;
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The largest `"result": {...}` member (with its comma) the host may add to layer `layerId` of room `roomId`. */
function resultBytes(roomId: string, layerId: string): number {
  const hash = 'f'.repeat(64);
  const widest: LayerResult = { result_id: hash, type: 'point_cloud', data_url: layerDataUrl(roomId, layerId), blob_id: hash };
  const staticUrl = specimenDataUrl('s'.repeat(200), 0xffffffff);
  return bytesOf({ result: widest }) + Math.max(0, staticUrl.length - widest.data_url.length);
}

/** Checks one layer's own size (without its result). @throws SPC_ERR_SCENE_INVALID naming the layer. */
export function checkLayerBytes(layer: SceneLayer, path: string): void {
  const { result: _result, ...own } = layer;
  const bytes = bytesOf(own);
  if (bytes > MAX_LAYER_BYTES) {
    throw bad(path, `takes ${bytes} bytes of JSON, more than the ${MAX_LAYER_BYTES} a layer may take: shorten its name, params, labels or channels`);
  }
}

/** Checks that `scene`, with every result the host may add, stays under MAX_SCENE_BYTES. @throws SPC_ERR_SCENE_TOO_LARGE */
export function checkSceneBytes(roomId: string, scene: RoomScene): void {
  const bare: RoomScene = { ...scene, version: Number.MAX_SAFE_INTEGER, layers: scene.layers.map(({ result: _result, ...own }) => own as SceneLayer) };
  const bytes = bytesOf(bare) + scene.layers.reduce((sum, layer) => sum + resultBytes(roomId, layer.id), 0);
  if (bytes > MAX_SCENE_BYTES) throw createHostError('SPC_ERR_SCENE_TOO_LARGE', String(bytes), String(MAX_SCENE_BYTES));
}
