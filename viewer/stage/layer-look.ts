/**
 * @module layer-look
 * A layer's display as three.js sees it: its affine (4×4, row-major, physical units) as the
 * matrix of the group its content hangs from, its clip planes as world-space planes, and its
 * opacity and blending on the materials of a content that does not handle them itself.
 * Blending: `translucent` is ordinary alpha blending, `additive` adds light, `maximum` and
 * `minimum` keep the larger or smaller of the layer's colour and what lies below, `opaque`
 * ignores opacity and writes depth.
 */
import * as THREE from 'three';
import type { LayerDisplay } from '../../core/wire/scene-types.ts';
import type { LayerLook } from './stage-content.ts';

/** The look of a layer with a default display: what a content shows outside any scene. */
export const PLAIN_LOOK: Readonly<LayerLook> = { opacity: 1, blending: 'translucent', clipPlanes: [], renderOrder: 0, stack: 0 };

/** The matrix of a layer's affine; identity when absent or not 16 finite numbers. */
export function affineMatrix(affine: readonly number[] | undefined): THREE.Matrix4 {
  const m = new THREE.Matrix4();
  if (affine?.length === 16 && affine.every(Number.isFinite)) m.set(...(affine as Parameters<THREE.Matrix4['set']>));
  return m;
}

/** A layer's clip planes in its own frame: points with ax+by+cz+d ≥ 0 are kept (three.js keeps the same side). */
export function layerPlanes(planes: LayerDisplay['clip_planes']): THREE.Plane[] {
  const out: THREE.Plane[] = [];
  for (const plane of planes ?? []) {
    if (!Array.isArray(plane) || plane.length !== 4 || !plane.every(Number.isFinite)) continue;
    const [a, b, c, d] = plane;
    const length = Math.hypot(a, b, c);
    if (length > 0) out.push(new THREE.Plane(new THREE.Vector3(a / length, b / length, c / length), d / length));
  }
  return out.slice(0, 4);
}

/** Writes `local` (planes of a frame whose world matrix is `matrixWorld`) into `world` as world-space planes. */
export function toWorldPlanes(local: readonly THREE.Plane[], matrixWorld: THREE.Matrix4, world: THREE.Plane[]): void {
  world.length = local.length;
  for (let i = 0; i < local.length; i++) world[i] = (world[i] ?? new THREE.Plane()).copy(local[i]!).applyMatrix4(matrixWorld);
}

/** True when `point` (world) is on the kept side of every plane. */
export function keptByPlanes(planes: readonly THREE.Plane[], point: THREE.Vector3): boolean {
  return planes.every((plane) => plane.distanceToPoint(point) >= 0);
}

/** What a material was before any layer look touched it, and the look it has now. */
type Own = Pick<THREE.Material, 'opacity' | 'transparent' | 'depthWrite'>;

function ownOf(material: THREE.Material): Own {
  const data = material.userData as { own?: Own };
  data.own ??= { opacity: material.opacity, transparent: material.transparent, depthWrite: material.depthWrite };
  return data.own;
}

/** Sets blending (and whether it makes the material transparent) for `blending`. */
export function applyBlending(material: THREE.Material, blending: LayerLook['blending']): boolean {
  material.blendEquation = THREE.AddEquation;
  if (blending === 'opaque') material.blending = THREE.NoBlending;
  else if (blending === 'additive') material.blending = THREE.AdditiveBlending;
  else if (blending === 'translucent') material.blending = THREE.NormalBlending;
  else {
    material.blending = THREE.CustomBlending;
    material.blendEquation = blending === 'maximum' ? THREE.MaxEquation : THREE.MinEquation;
    material.blendSrc = THREE.OneFactor;
    material.blendDst = THREE.OneFactor;
  }
  return blending !== 'opaque' && blending !== 'translucent';
}

/** Gives `material` the look of its layer, over the opacity its content gave it (setOwnOpacity). */
export function applyMaterialLook(material: THREE.Material, look: LayerLook): void {
  const own = ownOf(material);
  (material.userData as { look?: LayerLook }).look = look;
  const blends = applyBlending(material, look.blending);
  const opacity = look.blending === 'opaque' ? 1 : own.opacity * look.opacity;
  material.opacity = opacity;
  material.transparent = look.blending !== 'opaque' && (own.transparent || blends || opacity < 1);
  // Light added or compared must not hide what is behind it from later layers.
  material.depthWrite = blends ? false : own.depthWrite;
  material.clippingPlanes = look.clipPlanes.length > 0 ? look.clipPlanes : null;
  if ((material.userData as { slice?: boolean }).slice) {
    material.polygonOffset = look.stack > 0;
    material.polygonOffsetFactor = -look.stack;
    material.polygonOffsetUnits = -4 * look.stack;
  }
  material.needsUpdate = true;
}

/** A content's own opacity (a room's view fading a mesh), kept under its layer's look. */
export function setOwnOpacity(material: THREE.Material, opacity: number): void {
  const own = ownOf(material);
  own.opacity = opacity;
  own.transparent = opacity < 1;
  applyMaterialLook(material, (material.userData as { look?: LayerLook }).look ?? PLAIN_LOOK);
}

/** Every material of `object` and its descendants. */
export function materialsOf(object: THREE.Object3D): THREE.Material[] {
  const out = new Set<THREE.Material>();
  object.traverse((node) => {
    const material = (node as THREE.Mesh).material as THREE.Material | THREE.Material[] | undefined;
    for (const m of Array.isArray(material) ? material : material ? [material] : []) out.add(m);
  });
  return [...out];
}

/** The layer's draw order on every object of `object`, and its look on every material (for contents without applyLook). */
export function applyObjectLook(object: THREE.Object3D, look: LayerLook): void {
  object.traverse((node) => (node.renderOrder = look.renderOrder));
  for (const material of materialsOf(object)) applyMaterialLook(material, look);
}
