/**
 * @module stage-pick
 * Picking a 3-D point on the stage: what the user sees first along a ray, over every visible
 * layer. A mesh gives the point of its surface, a volume's slice the voxel it shows there (if
 * that voxel is drawn at all), a ray-marched volume its first visible sample along the ray, a
 * point cloud its nearest point; a layer's clip planes are honoured. The value readout uses it
 * under the mouse, and the annotation tools place marks with it: `Stage.pickAt(clientX, clientY)`
 * on the page, `Stage.pickRay(raycaster)` for a controller's ray in VR.
 */
import type * as THREE from 'three';
import { keptByPlanes } from './layer-look.ts';
import type { ContentHit, StageContent } from './stage-content.ts';
import type { StageLayer } from './stage-layers.ts';

/** The nearest thing under a ray, with where it is in the frames an annotation needs. */
export interface StagePick extends ContentHit {
  /** The layer it belongs to. */
  layer: string;
  /** The point in the layer's own frame (physical units, before its affine). */
  local: THREE.Vector3;
  /** The point in the room's frame (physical units, after the layer's affine). */
  room: THREE.Vector3;
  /**
   * Where a mark placed here goes, in both frames: a volume's voxel centre (so a ruler between
   * two voxels measures what the host says lies between them), else the point itself.
   */
  place: { local: THREE.Vector3; room: THREE.Vector3 };
}

/** The default pick of a content: its visible meshes, lines left out, points by their size. */
export function pickObject(content: StageContent, ray: THREE.Raycaster, kept: (point: THREE.Vector3) => boolean): ContentHit | null {
  const targets: THREE.Object3D[] = [];
  content.object.traverseVisible((node) => {
    if ((node as THREE.Mesh).isMesh || (node as THREE.Points).isPoints) targets.push(node);
  });
  const points = targets.find((node) => (node as THREE.Points).isPoints) as THREE.Points | undefined;
  if (points) {
    // The threshold is in world units: about the drawn size of a point.
    const size = (points.material as THREE.PointsMaterial).size ?? 1;
    points.updateWorldMatrix(true, false);
    ray.params.Points = { threshold: (size / 2) * points.matrixWorld.getMaxScaleOnAxis() };
  }
  for (const hit of ray.intersectObjects(targets, false)) {
    if (!kept(hit.point)) continue;
    return { distance: hit.distance, point: hit.point.clone(), kind: (hit.object as THREE.Points).isPoints ? 'point' : 'surface' };
  }
  return null;
}

/** The nearest hit of `ray` over the visible layers (top layer first on a tie), or null. */
export function pickLayers(layers: readonly StageLayer[], ray: THREE.Raycaster, frame: THREE.Object3D): StagePick | null {
  let best: { hit: ContentHit; layer: StageLayer } | null = null;
  for (const layer of [...layers].reverse()) {
    const content = layer.content;
    if (!content || !layer.root.visible) continue;
    const kept = (point: THREE.Vector3): boolean => keptByPlanes(layer.look.clipPlanes, point);
    const hit = content.pick ? content.pick(ray, kept) : pickObject(content, ray, kept);
    if (hit && (!best || hit.distance < best.hit.distance)) best = { hit, layer };
  }
  if (!best) return null;
  best.layer.root.updateWorldMatrix(true, false);
  frame.updateWorldMatrix(true, false);
  const local = best.layer.root.worldToLocal(best.hit.point.clone());
  const room = frame.worldToLocal(best.hit.point.clone());
  const at = best.hit.centre;
  const place = at ? { local: best.layer.root.worldToLocal(at.clone()), room: frame.worldToLocal(at.clone()) } : { local, room };
  return { ...best.hit, layer: best.layer.id, local, room, place };
}
