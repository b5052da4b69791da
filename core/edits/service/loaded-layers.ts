/**
 * @module loaded-layers
 * Rooms' labels layers as edits work on them, loaded once per host: the layer's base result (a
 * layer showing an edited version names its base in its provenance; else its result as
 * computed), a chunked volume over the base's voxels, its label tables and the digests that name
 * its versions. Each ask checks the room still has the layer, as labels. Edits are applied by
 * whoever loaded it.
 */
import { keptWhileMade } from '../../cache/result-budget.ts';
import { createHostError } from '../../errors.ts';
import type { RoomScenes } from '../../scenes/service/room-scenes.ts';
import { obtainLayerResult, type LayerSourceDeps } from '../../scenes/service/layer-sources.ts';
import { isLabelDType } from '../../results/label-fields.ts';
import { editedFrom } from '../../wire/provenance-types.ts';
import type { SceneLayer } from '../../wire/scene-types.ts';
import { LayerEdits } from '../layer-edits.ts';
import { tableFields, tablesOf } from '../label-tables.ts';
import { LabelVolume, type LabelArray, type LabelDtype } from '../label-volume.ts';
import { ChunkDigests } from '../version-name.ts';
import type { LoadedLayer, StoredVolume } from './layer-versions.ts';

/** The shape of a labels volume as z, y, x: time and channel axes of one step only. */
function gridOf(volume: StoredVolume): [number, number, number] | null {
  const shape = [...volume.shape];
  while (shape.length > 3 && shape[0] === 1) shape.shift();
  while (shape.length < 3) shape.unshift(1);
  return shape.length === 3 ? (shape as [number, number, number]) : null;
}

export class LoadedLayers {
  #scenes: Pick<RoomScenes, 'scene' | 'layerData'>;
  #sources: LayerSourceDeps;
  #layers = new Map<string, Promise<LoadedLayer>>();
  #loaded: (layer: LoadedLayer) => void;

  /** `loaded` is told of each layer once, as it is first loaded. */
  constructor(scenes: Pick<RoomScenes, 'scene' | 'layerData'>, sources: LayerSourceDeps, loaded: (layer: LoadedLayer) => void) {
    this.#scenes = scenes;
    this.#sources = sources;
    this.#loaded = loaded;
  }

  /** The room's layer, a labels layer with a result. @throws 404 unknown layer, 409 not labels */
  async #layerOf(roomId: string, layerId: string): Promise<SceneLayer> {
    const scene = await this.#scenes.scene(roomId);
    const layer = scene.layers.find((l) => l.id === layerId);
    if (!layer) throw createHostError('SPC_ERR_LAYER_NOT_FOUND', layerId, roomId);
    if (layer.kind !== 'labels') throw createHostError('SPC_ERR_EDIT_NOT_LABELS', layerId, layer.kind);
    return layer;
  }

  async #baseOf(roomId: string, layer: SceneLayer): Promise<StoredVolume> {
    const sources = this.#sources;
    const baseId = editedFrom(layer.result?.provenance)?.base_result ?? layer.result?.result_id;
    const held = baseId ? await sources.resultIds.find(baseId) : null;
    const result = held ?? (await obtainLayerResult(sources, await this.#scenes.layerData(roomId, layer.id, { asked: {}, userAgent: undefined }))).result;
    if (result.type !== 'volume' || !isLabelDType(result.dtype) || !gridOf(result))
      throw createHostError('SPC_ERR_EDIT_NOT_LABELS', layer.id, `${result.type} (not a uint8, uint16 or uint32 segmentation of one step)`);
    return result;
  }

  /** Layer `layerId` of room `roomId`, loaded the first time it is asked. */
  async load(roomId: string, layerId: string): Promise<LoadedLayer> {
    const key = JSON.stringify([roomId, layerId]);
    let loading = this.#layers.get(key);
    if (!loading) {
      const making = (async () => {
        const base = await this.#baseOf(roomId, await this.#layerOf(roomId, layerId));
        const volume = new LabelVolume(base.data as LabelArray, gridOf(base)!, base.dtype as LabelDtype);
        const tables = tablesOf(base.label_names, base.label_colors);
        const baseId = this.#sources.resultIds.of(base);
        baseId.catch(() => {});
        const baseTables = JSON.stringify(tableFields(tables, base));
        return { base, edits: new LayerEdits(volume, tables), baseId, baseTables, digests: new ChunkDigests(volume) };
      })();
      loading = keptWhileMade(this.#layers, key, making, this.#loaded);
    } else await this.#layerOf(roomId, layerId);
    return loading;
  }
}
