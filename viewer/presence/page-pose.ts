/**
 * @module page-pose
 * A page's own pose as the room sees it: its camera is its head (where it looks from, down its
 * -z), and while the mouse is over the stage its pointer is the ray from the camera through the
 * mouse. Both are said in the room's frame (the content root's), so peers that placed the
 * content elsewhere (a headset's table) see them where they are relative to it. In a headset
 * the pose is read from the session's frame instead: its head (the viewer), each tracked hand
 * (its grip, or where it points when it has no grip) and its pointer (the right hand's ray, else
 * the other's). The frame's reference space is the stage's world.
 */
import * as THREE from 'three';
import type { Placement, Pose } from '../../core/wire/live-types.ts';
import type { Stage } from '../stage/stage.ts';

const FORWARD = new THREE.Vector3(0, 0, -1);

/** A world position and orientation said in the frame of `root`. */
function toRoomPlacement(root: THREE.Object3D, position: THREE.Vector3, orientation: THREE.Quaternion): Placement {
  root.updateMatrixWorld(true);
  const world = new THREE.Matrix4().compose(position, orientation, new THREE.Vector3(1, 1, 1));
  const local = root.matrixWorld.clone().invert().multiply(world);
  const p = new THREE.Vector3();
  const q = new THREE.Quaternion();
  local.decompose(p, q, new THREE.Vector3());
  q.normalize();
  return { position: [p.x, p.y, p.z], orientation: [q.x, q.y, q.z, q.w] };
}

/** The page's pose: its camera, and its pointer when the mouse (`mouse`, client pixels) is over the stage. */
export function pagePose(stage: Stage, mouse: { x: number; y: number } | null): Pose {
  const camera = stage.view.camera;
  camera.updateMatrixWorld(true);
  const pose: Pose = { head: toRoomPlacement(stage.contentRoot, camera.position, camera.quaternion) };
  if (mouse) {
    const ray = stage.view.rayAt(stage.canvas, mouse.x, mouse.y).ray;
    const turn = new THREE.Quaternion().setFromUnitVectors(FORWARD, ray.direction.clone().normalize());
    pose.pointer = toRoomPlacement(stage.contentRoot, ray.origin, turn);
  }
  return pose;
}

function placementOf(transform: XRRigidTransform, root: THREE.Object3D): Placement {
  const { position: p, orientation: q } = transform;
  return toRoomPlacement(root, new THREE.Vector3(p.x, p.y, p.z), new THREE.Quaternion(q.x, q.y, q.z, q.w));
}

/** The headset's pose in `frame`, or null when the viewer is not tracked. */
export function xrPose(frame: XRFrame, space: XRReferenceSpace, root: THREE.Object3D): Pose | null {
  const viewer = frame.getViewerPose(space);
  if (!viewer) return null;
  const pose: Pose = { head: placementOf(viewer.transform, root) };
  const rays: Partial<Record<XRHandedness, Placement>> = {};
  for (const source of frame.session.inputSources) {
    if (source.handedness === 'none') continue;
    const held = frame.getPose(source.gripSpace ?? source.targetRaySpace, space);
    if (held) (pose.hands ??= {})[source.handedness] = placementOf(held.transform, root);
    const ray = frame.getPose(source.targetRaySpace, space);
    if (ray) rays[source.handedness] = placementOf(ray.transform, root);
  }
  const pointer = rays.right ?? rays.left;
  if (pointer) pose.pointer = pointer;
  return pose;
}
