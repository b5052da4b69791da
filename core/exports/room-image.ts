/**
 * @module room-image
 * A picture of what a room shows, for `GET /api/rooms/{room_id}/image` and the agents'
 * `room_image`: every visible layer of its scene, each as the scene shows it (a layer whose
 * result cannot be had is left out), or without a scene the room's entry; each result taken
 * from what the host holds or computed again as `/data` would, drawn with the room's view on
 * the encode thread (thumbnails/room-picture.ts). A room that shows nothing is a 404. The PNG's
 * text says what made each layer drawn (room-provenance.ts), so a figure names its code.
 */
import { createHostError } from '../errors.ts';
import type { LayerSource, SceneLayer } from '../wire/scene-types.ts';
import type { RoomEntry } from '../wire/wire-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultIds } from '../serving/result-ids.ts';
import type { PictureRunner } from '../thumbnails/room-picture.ts';
import type { PictureLayer } from '../thumbnails/scene-picture.ts';
import { obtainLayerResult, resolveLayerSource, type LayerSourceDeps } from '../scenes/service/layer-sources.ts';
import type { RoomScenes } from '../scenes/service/room-scenes.ts';
import type { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import { withPngText } from '../formats/png/png-text.ts';
import { provenanceOfRoom, provenanceText, type RoomProvenanceDeps } from './room-provenance.ts';

/** Each side's default and largest value, in pixels. */
export const PICTURE_SIDE = { default: 512, max: 2048 } as const;

/** What a room's picture reads from its host. */
export type RoomImageDeps = LayerSourceDeps & {
  resultIds: Pick<ResultIds, 'of' | 'find'>;
  rooms: Pick<RoomWorkspace, 'entry' | 'view'>;
  scenes: Pick<RoomScenes, 'scene' | 'layerData'>;
  pictures: PictureRunner;
} & Pick<RoomProvenanceDeps, 'functions'>;

/**
 * A picture side as a query or a tool gives it (absent: the default).
 * @throws SPC_ERR_ROOM_IMAGE_SIZE naming `field`.
 */
export function pictureSide(field: string, value: unknown): number {
  if (value === undefined || value === null || value === '') return PICTURE_SIDE.default;
  const side = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof side !== 'number' || !Number.isInteger(side) || side < 1 || side > PICTURE_SIDE.max)
    throw createHostError('SPC_ERR_ROOM_IMAGE_SIZE', field, JSON.stringify(value));
  return side;
}

/** The entry as a layer's source: its specimen (static or computed) or its function, with its parameters. */
function sourceOf(entry: RoomEntry): LayerSource {
  if (entry.function_name === null) return { specimen: entry.specimen_id! };
  return entry.specimen_id !== null ? { specimen: entry.specimen_id, params: entry.params } : { function: entry.function_name, params: entry.params };
}

async function entryResult(deps: RoomImageDeps, roomId: string, entry: RoomEntry): Promise<StoredResult> {
  const held = entry.result_id ? await deps.resultIds.find(entry.result_id) : null;
  if (held) return held;
  const resolved = await resolveLayerSource(deps, roomId, roomId, sourceOf(entry), 'entry');
  return (await obtainLayerResult(deps, resolved)).result;
}

/** A scene layer's result as the picture draws it, or null when it cannot be had now. */
async function layerPicture(deps: RoomImageDeps, roomId: string, layer: SceneLayer): Promise<PictureLayer | null> {
  const { id: _id, source: _source, kind, result: held, ...display } = layer;
  let result = held?.result_id ? await deps.resultIds.find(held.result_id) : null;
  try {
    result ??= (await obtainLayerResult(deps, await deps.scenes.layerData(roomId, layer.id, { asked: {}, userAgent: undefined }))).result;
  } catch {
    return null;
  }
  return { result, kind, display };
}

/**
 * A PNG of what room `roomId` shows with its view, `width` × `height` pixels, its text saying
 * what made each layer drawn (or the entry). @throws SPC_ERR_ROOM_EMPTY
 */
export async function roomImage(deps: RoomImageDeps, roomId: string, width: number, height: number): Promise<Uint8Array> {
  const [entry, view, scene] = await Promise.all([deps.rooms.entry(roomId), deps.rooms.view(roomId), deps.scenes.scene(roomId)]);
  const shown = scene.layers.filter((layer) => layer.visible !== false);
  // What made what is drawn, from the scene and entry the picture drew.
  const said = (drawn: ReadonlySet<string>) => provenanceText(provenanceOfRoom(deps.functions, roomId, scene, entry), drawn);
  if (shown.length > 0) {
    const pictured = await Promise.all(shown.map(async (layer) => ({ id: layer.id, picture: await layerPicture(deps, roomId, layer) })));
    const drawn = pictured.filter((p) => p.picture !== null);
    if (drawn.length > 0) {
      const png = await deps.pictures(drawn.map((p) => p.picture!), { width, height, view });
      return withPngText(png, said(new Set(drawn.map((p) => p.id))));
    }
  }
  if (!entry || (entry.function_name === null && entry.specimen_id === null)) throw createHostError('SPC_ERR_ROOM_EMPTY', roomId);
  const result = await entryResult(deps, roomId, entry);
  return withPngText(await deps.pictures([{ result }], { width, height, view }), said(new Set()));
}
