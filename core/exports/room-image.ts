/**
 * @module room-image
 * A picture of what a room shows, for `GET /api/rooms/{room_id}/image` and the agents'
 * `room_image`: every visible layer of its scene, each as the scene shows it (a layer whose
 * result cannot be had is left out), or without a scene the room's entry; each result taken
 * from what the host holds or computed again as `/data` would, drawn as the page draws it on
 * the encode thread (thumbnails/room-picture.ts): a segmentation whose result has levels of
 * detail with its segments' surfaces as the page draws them beside its slices (or alone, in
 * `surface` mode), each in its label's colour (wire/label-colors.ts, the page's function);
 * then the room's marks and a scale bar in the unit of the room's frame (the active layer's result's, as the page reads it). A room that
 * shows nothing is a 404. The PNG's text says what made each layer drawn (room-provenance.ts),
 * so a figure names its code.
 */
import { createHostError } from '../errors.ts';
import { labelColor } from '../wire/label-colors.ts';
import { colourOf } from '../wire/mark-colours.ts';
import { markText } from '../wire/mark-format.ts';
import type { LayerSource, SceneLayer } from '../wire/scene-types.ts';
import type { RoomEntry } from '../wire/room-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultIds } from '../serving/result-ids.ts';
import type { DeliveryVariants } from '../delivery/delivery-variants.ts';
import type { PictureMark } from '../thumbnails/picture-marks.ts';
import type { PictureRunner } from '../thumbnails/room-picture.ts';
import type { PictureLayer } from '../thumbnails/scene-picture.ts';
import { obtainLayerResult, resolveLayerSource, type LayerSourceDeps } from '../scenes/service/layer-sources.ts';
import type { RoomScenes } from '../scenes/service/room-scenes.ts';
import type { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import { withPngText } from '../formats/png/png-text.ts';
import { provenanceOfRoom, provenanceText, type RoomProvenanceDeps } from './room-provenance.ts';
import { thumbnailColour } from './thumbnail-colour.ts';
import { asRoomsOwn } from '../events/acting-user.ts';

/** Each side's default and largest value, in pixels. */
export const PICTURE_SIDE = { default: 512, max: 2048 } as const;

/** The most triangles a segmentation's surfaces are drawn with in a picture (the finest level within it). */
const SURFACE_TRIANGLES = 200_000;

/** What a room's picture reads from its host. */
export type RoomImageDeps = LayerSourceDeps & {
  resultIds: Pick<ResultIds, 'of' | 'find'>;
  rooms: Pick<RoomWorkspace, 'entry' | 'view'>;
  scenes: Pick<RoomScenes, 'scene' | 'layerData'>;
  pictures: PictureRunner;
  /** Where a segmentation's surfaces come from (its painted `segment=all` mesh). */
  delivery: Pick<DeliveryVariants, 'shaped'>;
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
  // The room's own entry: what whoever showed it was checked for is not asked again.
  const resolved = await asRoomsOwn(() => resolveLayerSource(deps, roomId, roomId, sourceOf(entry), 'entry'));
  return (await obtainLayerResult(deps, resolved)).result;
}

/**
 * The colour the page gives a mesh of `source`, when not its default: the page's own subject
 * (the active layer, or the entry) takes its specimen's declared colour, else its thumbnail's;
 * another layer a segment's surface takes its label's colour.
 */
async function meshColourOf(deps: RoomImageDeps, source: LayerSource, active: boolean): Promise<string | undefined> {
  if (active) {
    const record = source.specimen !== undefined ? deps.catalog.get(source.specimen) : undefined;
    return record && (record.color ?? (await thumbnailColour(record)));
  }
  const segment = source.segment ?? source.params?.segment;
  if (typeof segment !== 'number' || !Number.isInteger(segment)) return undefined;
  return labelColor(segment);
}

/**
 * A segmentation's surfaces as the page draws them: when its result has levels of detail and its
 * mode shows them (not `volume`), every segment's surface in one mesh, painted per segment in
 * its label's colour; null otherwise, or when they cannot be had now (the slices are drawn still).
 */
async function surfacesOf(deps: RoomImageDeps, layer: SceneLayer, result: StoredResult): Promise<StoredResult | null> {
  const labels = layer.kind === 'labels' || (result.type === 'volume' && result.labels === true);
  if (!labels || !layer.result?.levels || layer.mode === 'volume') return null;
  return deps.delivery.shaped(result, { segment: 'all', max_triangles: SURFACE_TRIANGLES }).catch(() => null);
}

/** A scene layer drawn: its result, and what the picture draws of it (a segmentation: its volume, then its surfaces). */
interface DrawnLayer {
  result: StoredResult;
  pictures: PictureLayer[];
}

/** A scene layer as the picture draws it, or null when its result cannot be had now. */
async function layerPictures(deps: RoomImageDeps, roomId: string, layer: SceneLayer, active: boolean): Promise<DrawnLayer | null> {
  const { id: _id, source, kind, result: held, stale: _stale, ...display } = layer;
  let result = held?.result_id ? await deps.resultIds.find(held.result_id) : null;
  try {
    result ??= (await obtainLayerResult(deps, await deps.scenes.layerData(roomId, layer.id, { asked: {}, userAgent: undefined }))).result;
  } catch {
    return null;
  }
  const meshColour = result.type === 'mesh' ? await meshColourOf(deps, source, active) : undefined;
  const drawn: PictureLayer = { result, kind, display, active, ...(meshColour ? { meshColour } : {}) };
  const surfaces = await surfacesOf(deps, layer, result);
  if (!surfaces) return { result, pictures: [drawn] };
  // In `surface` mode the page draws the surfaces alone; else the slices with them.
  const { mode: _mode, labels: _labels, ...placing } = display;
  const painted: PictureLayer = { result: surfaces, display: placing, active: false };
  return { result, pictures: layer.mode === 'surface' ? [painted] : [drawn, painted] };
}

/** A result's length unit, null when it states none. */
function unitOf(result: StoredResult | undefined): string | null {
  const unit = (result as { unit?: unknown } | undefined)?.unit;
  return typeof unit === 'string' && unit !== '' ? unit : null;
}

/**
 * The room's marks as the picture draws them: each in its colour, through its layer's affine,
 * with the words the page writes beside it, measured in its frame's unit (its layer's result's,
 * else `roomUnit`).
 */
async function picturedMarks(
  deps: RoomImageDeps,
  roomId: string,
  layers: readonly SceneLayer[],
  drawn: ReadonlyMap<string, { result: StoredResult }>,
  roomUnit: string | null,
): Promise<PictureMark[]> {
  const { annotations } = await deps.annotations.list(roomId);
  return annotations.map((mark) => {
    const layer = mark.layer === undefined ? undefined : layers.find((l) => l.id === mark.layer);
    const unit = mark.layer === undefined ? roomUnit : unitOf(drawn.get(mark.layer)?.result);
    return {
      kind: mark.kind,
      points: mark.points,
      colour: colourOf(mark),
      text: markText(mark, unit),
      ...(layer?.affine ? { affine: layer.affine } : {}),
    };
  });
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
    const pictured = await Promise.all(
      shown.map(async (layer) => ({ id: layer.id, picture: await layerPictures(deps, roomId, layer, layer.id === scene.active) })),
    );
    const drawn = new Map(pictured.filter((p) => p.picture !== null).map((p) => [p.id, p.picture!] as const));
    if (drawn.size > 0) {
      // The room's frame is the active layer's (the entry's): its unit is the one the page's bar reads.
      const unit = unitOf((scene.active !== null ? drawn.get(scene.active) : undefined)?.result);
      const marks = await picturedMarks(deps, roomId, scene.layers, drawn, unit);
      const png = await deps.pictures([...drawn.values()].flatMap((layer) => layer.pictures), { width, height, view, marks, unit });
      return withPngText(png, said(new Set(drawn.keys())));
    }
  }
  if (!entry || (entry.function_name === null && entry.specimen_id === null)) throw createHostError('SPC_ERR_ROOM_EMPTY', roomId);
  const result = await entryResult(deps, roomId, entry);
  const unit = unitOf(result);
  const marks = await picturedMarks(deps, roomId, [], new Map(), unit);
  const meshColour = result.type === 'mesh' ? await meshColourOf(deps, sourceOf(entry), true) : undefined;
  const layer: PictureLayer = { result, active: true, ...(meshColour ? { meshColour } : {}) };
  return withPngText(await deps.pictures([layer], { width, height, view, marks, unit }), said(new Set()));
}
