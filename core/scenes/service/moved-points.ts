/**
 * @module moved-points
 * Which bound layers a change of the scene gave other points. A layer bound to the room's
 * points takes them in its own frame, each carried there through the affine of the layer it
 * was marked on (annotations/layer-frame.ts): a new affine of the bound layer, or of a layer
 * its points were marked on, moves the points it would be given though no mark moved. Such a
 * layer is computed again; one whose points come out the same (no marks on the moved layer,
 * or none with its label) is not. A layer that is computed anyway after the change (new, or a
 * new source) is not listed.
 */
import { boundFrame } from '../../annotations/layer-frame.ts';
import type { RoomScene, SceneLayer } from '../../wire/scene-types.ts';
import { sameSource } from '../check-source.ts';
import { pointsOf, type RoomAnnotations } from './room-annotations.ts';

/** Whether `layer`'s source binds parameters to the room's points. */
export function isBound(layer: SceneLayer): boolean {
  return layer.source.bind !== undefined && Object.keys(layer.source.bind).length > 0;
}

/** Each layer's affine by id (absent: identity), as one comparable text. */
function affinesOf(scene: RoomScene): string {
  return JSON.stringify(scene.layers.filter((layer) => layer.affine).map((layer) => [layer.id, layer.affine]).sort());
}

/**
 * The ids of the bound layers of `after` whose points differ from those they had in `before`
 * (the room's marks read only when some affine changed and some layer binds).
 */
export async function movedBoundLayers(annotations: Pick<RoomAnnotations, 'list'>, roomId: string, before: RoomScene, after: RoomScene): Promise<string[]> {
  const kept = after.layers.filter((layer) => {
    const old = before.layers.find((l) => l.id === layer.id);
    return isBound(layer) && old !== undefined && sameSource(old.source, layer.source);
  });
  if (kept.length === 0 || affinesOf(before) === affinesOf(after)) return [];
  const { annotations: marks } = await annotations.list(roomId);
  return kept
    .filter((layer) =>
      Object.values(layer.source.bind!).some((binding) => {
        const was = pointsOf(marks, binding.label, boundFrame(before.layers, layer.id));
        const is = pointsOf(marks, binding.label, boundFrame(after.layers, layer.id));
        return JSON.stringify(was) !== JSON.stringify(is);
      }),
    )
    .map((layer) => layer.id);
}
