/**
 * @module layer-rows
 * The rows the page's layer list and the VR panel's show for a scene, and the note under the
 * page's (listNote): each layer's name, kind, display, whether it is active or selected, its
 * status (computing until it has a result, else what its loader last said; `stale` with why
 * for a layer whose source no longer gives what it shows), what made it (layer-made.ts) and
 * who made its last change.
 */
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import type { VrLayerRow } from '../xr/vr-layer-list.ts';
import { layerMade } from './layer-made.ts';
import type { LayerRowState } from './layer-row.ts';

/** A layer's name as the lists show it: its own, else its specimen's or function's, else its id. */
export function layerName(layer: SceneLayer): string {
  return layer.name ?? layer.source.specimen ?? layer.source.function ?? layer.id;
}

/** The layer `scene` makes its entry, if it has one. */
export function activeLayerOf(scene: RoomScene | null): SceneLayer | undefined {
  return scene?.layers.find((layer) => layer.id === scene.active);
}

/**
 * What the list says under its rows: to follow the room, on a page that does not; that the
 * room shows one thing, when it has no layers. Until the room's first `scene` event (`known`)
 * the page does not know what the room shows: it says nothing of it.
 */
export function listNote(unfollowed: boolean, known: boolean, rows: number): string {
  if (unfollowed) return 'Follow the room to see and share its layers.';
  return known && rows === 0 ? 'This room shows one thing; add a layer to show more.' : '';
}

/** The page's rows for `scene` (bottom first); `selected`: the layer whose controls are shown. */
export function layerRows(
  scene: RoomScene | null,
  selected: string | null,
  status: ReadonlyMap<string, { status: string; detail: string }>,
): LayerRowState[] {
  return (scene?.layers ?? []).map((layer) => {
    const loading = status.get(layer.id);
    // A stale layer says so (with why), unless its last result is still arriving.
    const stale =
      layer.stale && loading?.status !== 'loading' && loading?.status !== 'refining'
        ? { status: 'stale', detail: layer.stale.detail }
        : null;
    // A layer whose source failed says so, with why, unless it is being read again.
    const failed = layer.failed && !loading ? { status: 'failed', detail: layer.failed.detail } : null;
    const said = stale ?? failed ?? loading ?? { status: layer.result ? '' : 'computing', detail: '' };
    const scalar = layer.kind === 'image' || layer.kind === 'points';
    return {
      id: layer.id,
      name: layerName(layer),
      kind: layer.kind,
      visible: layer.visible !== false,
      opacity: typeof layer.opacity === 'number' ? layer.opacity : 1,
      colormap: scalar ? (layer.colormap ?? 'viridis') : null,
      active: layer.id === scene?.active,
      selected: layer.id === selected,
      status: said.status,
      detail: said.detail,
      made: layerMade(layer),
      by: layer.by ?? null,
      source: layer.source,
      ...(layer.stale ? { stale: layer.stale } : {}),
    };
  });
}

/** The VR panel's rows for `scene`: name, visibility, opacity and the plugin version that made each. */
export function vrLayerRows(scene: RoomScene | null): VrLayerRow[] {
  return (scene?.layers ?? []).map((layer) => ({
    id: layer.id,
    name: layerName(layer),
    visible: layer.visible !== false,
    opacity: layer.opacity ?? 1,
    made: layerMade(layer)?.label ?? '',
  }));
}
