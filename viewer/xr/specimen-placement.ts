/**
 * @module specimen-placement
 * Where the specimen stands in VR and how big it is. Units are metres (plugins give lengths in
 * metres), so the specimen starts at real size, its base at table height and its centre a
 * metre in front of where the session began (the `local-floor` origin looks down -z). A
 * specimen too large to stand on a table (over 1.5 m) or too small to see (under 2 cm)
 * starts at a scale that makes it 60 cm instead; "Real size" brings it back to 1:1.
 */
import * as THREE from 'three';

export const TABLE_HEIGHT = 0.8;
export const FRONT_DISTANCE = 1.0;
const LARGEST_REAL = 1.5;
const SMALLEST_REAL = 0.02;
const FIT_SIZE = 0.6;
export const MIN_SCALE = 1e-4;
export const MAX_SCALE = 1e4;

/** The content's bounding box in the root's own coordinates (before its placement). */
export function localBox(root: THREE.Object3D, content: THREE.Object3D): THREE.Box3 {
  root.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(content);
  return box.isEmpty() ? box : box.applyMatrix4(root.matrixWorld.clone().invert());
}

/** Real size when the specimen fits on a table, else the scale that makes it 60 cm. */
export function initialScale(box: THREE.Box3): number {
  if (box.isEmpty()) return 1;
  const largest = Math.max(...box.getSize(new THREE.Vector3()).toArray());
  if (!(largest > 0) || (largest <= LARGEST_REAL && largest >= SMALLEST_REAL)) return 1;
  return FIT_SIZE / largest;
}

/** Puts the root so the content's box stands on the table in front, upright, at `scale`. */
export function placeOnTable(root: THREE.Object3D, box: THREE.Box3, scale: number): void {
  const center = box.getCenter(new THREE.Vector3());
  root.quaternion.identity();
  root.scale.setScalar(scale);
  root.position.set(-center.x * scale, TABLE_HEIGHT - box.min.y * scale, -FRONT_DISTANCE - center.z * scale);
  root.updateMatrixWorld(true);
}

/** Sets the root's scale keeping the content's centre (`center`, root coordinates) where it is in the room. */
export function scaleAbout(root: THREE.Object3D, center: THREE.Vector3, scale: number): void {
  const clamped = THREE.MathUtils.clamp(scale, MIN_SCALE, MAX_SCALE);
  root.updateMatrixWorld(true);
  const before = root.localToWorld(center.clone());
  root.scale.setScalar(clamped);
  root.updateMatrixWorld(true);
  const after = root.localToWorld(center.clone());
  root.position.add(before.sub(after));
  root.updateMatrixWorld(true);
}
